package dev.engram.tools.rest;

import dev.engram.entries.rest.ChangeJson;
import dev.engram.tools.WriteRecord;

/** A write tool's journal record as JSON, for the host and never for the model: the tool, and the change. */
public record WriteRecordJson(String tool, ChangeJson change) {

    public static WriteRecordJson of(WriteRecord w) {
        return new WriteRecordJson(w.tool(), ChangeJson.of(w.change()));
    }
}
