package dev.engram.memories;

import java.time.Instant;
import java.util.List;

/** A named summary an agent keeps of something (a person, a system), with tags; saved whole, by an id it chooses. */
public record MentalModel(String id, String name, String description, String content, List<String> tags,
        Instant updatedAt) {

    public MentalModel {
        id = id == null ? "" : id;
        name = name == null ? "" : name;
        description = description == null ? "" : description;
        content = content == null ? "" : content;
        tags = Memory.set(tags);
    }
}
