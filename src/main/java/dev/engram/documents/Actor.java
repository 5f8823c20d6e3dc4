package dev.engram.documents;

import java.util.Objects;

/**
 * Who made a document's change, as its version records it: {@code api_actor} with a key's id,
 * {@code user_actor} with a token's subject, or {@code session_actor} with the session the caller named.
 */
public record Actor(String type, String id) {

    public static final String API = "api_actor";
    public static final String USER = "user_actor";
    public static final String SESSION = "session_actor";

    public Actor {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(id, "id");
    }

    /** The actor of a caller: a token's subject ({@code jwt:} and the subject) is a user, a key an API key. */
    public static Actor ofCaller(String callerId, String session) {
        if (session != null && !session.isEmpty()) {
            return new Actor(SESSION, session);
        }
        return callerId.startsWith("jwt:") ? new Actor(USER, callerId.substring(4)) : new Actor(API, callerId);
    }

    /** The member of the actor's JSON that holds its id. */
    public String idMember() {
        return switch (type) {
            case USER -> "user_id";
            case SESSION -> "session_id";
            default -> "api_key_id";
        };
    }
}
