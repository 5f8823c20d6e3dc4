package dev.engram.console;

/**
 * What every console page shows around its content: who is signed in, whether the keys page is theirs, and the
 * session's form token, which each of the page's forms carries back.
 *
 * @param caller the caller's name (a key's name, a token's subject, or operator)
 * @param callerId the key's ID, {@code jwt:} and the subject, or {@code operator}
 */
public record Chrome(String caller, String callerId, boolean operator, String csrf) {
}
