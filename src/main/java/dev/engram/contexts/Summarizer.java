package dev.engram.contexts;

import dev.engram.contexts.messages.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * What turns a block of steps (or of conversation) into a short summary, typically a model call. A summarizer that
 * fails throws; the step strategies then put a fallback text in the summary's place, and conversation compaction
 * refuses ({@link SummaryFailed}).
 */
@FunctionalInterface
public interface Summarizer {

    /** A summary of {@code text}; never null. Throws when it cannot answer (its message is shown in fallbacks). */
    String summarize(String text);

    /**
     * The answer for each of {@code texts}, in the order of {@code texts}: its summary or its failure. This one asks
     * one text after the other; an implementation may ask for several at once, but answers in the same order.
     */
    default List<Answer> summarizeEach(List<String> texts) {
        List<Answer> answers = new ArrayList<>(texts.size());
        for (String text : texts) {
            answers.add(Answer.of(this, text));
        }
        return answers;
    }

    /** What a summarizer answered for one text: a summary, or (with a null summary) the failure it threw. */
    record Answer(String summary, RuntimeException failure) {

        /** What {@code summarizer} answers for {@code text}; a failure is caught, never thrown. */
        public static Answer of(Summarizer summarizer, String text) {
            try {
                return new Answer(Text.orEmpty(summarizer.summarize(text)), null);
            } catch (RuntimeException failure) {
                return new Answer(null, failure);
            }
        }

        /** Whether the summarizer failed on this text. */
        public boolean failed() {
            return failure != null;
        }
    }
}
