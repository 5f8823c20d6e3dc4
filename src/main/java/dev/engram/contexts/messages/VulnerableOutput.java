package dev.engram.contexts.messages;

/**
 * A tool output the next prompt will prune: the tool's name and a short hint of its input ("" when none can be
 * read), so an agent can save what matters before it goes.
 */
public record VulnerableOutput(String toolName, String inputHint) {

    public VulnerableOutput {
        toolName = Text.orEmpty(toolName);
        inputHint = Text.orEmpty(inputHint);
    }
}
