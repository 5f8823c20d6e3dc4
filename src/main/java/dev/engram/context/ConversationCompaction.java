package dev.engram.context;

import dev.engram.memory.Invalid;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Compaction of a plain conversation (messages, not steps). Both forms keep the last message, never change the list
 * they are given, and return it unchanged when there is nothing to compact.
 */
public final class ConversationCompaction {

    /** The share of the budget the recent tail may take, as the reference uses it. */
    public static final double KEEP_RECENT_RATIO = 0.75;
    static final String SUMMARY_HEADER = "Previous conversation history (summarised):\n";
    static final String NO_USER_MESSAGES = "[No previous user messages to summarise]";
    static final int MAX_SUMMARY_BYTES = 1500;

    private ConversationCompaction() {
    }

    /**
     * {@code messages} fitted into {@code budgetTokens}: the newest messages that fit in ⌊budget · ratio⌋ (the newest
     * always), after one {@code system} message summarizing the older ones by their user lines; then the tail's
     * oldest dropped and the summary halved while over budget. Refused when {@code keepRecentRatio} is not strictly
     * between 0 and 1, or (for a non-empty list and a positive budget) without a counter. Unchanged when empty, when
     * the budget is 0 or less, or when it already fits.
     */
    public static List<Message> toBudget(List<Message> messages, int budgetTokens, TokenCounter counter,
            double keepRecentRatio) {
        if (!(keepRecentRatio > 0 && keepRecentRatio < 1)) {
            throw new Invalid("keep-recent-ratio-range", "keep_recent_ratio", "keep_recent_ratio is "
                    + keepRecentRatio + "; use a share strictly between 0 and 1, such as " + KEEP_RECENT_RATIO + ".");
        }
        if (messages == null || messages.isEmpty() || budgetTokens <= 0) {
            return messages == null ? List.of() : messages;
        }
        if (counter == null) {
            throw new Invalid("token-counter-required", "token_counter", "Fitting a conversation into a budget "
                    + "needs a token counter; pass one (such as the simple counter).");
        }
        if (counter.countMessages(messages) <= budgetTokens) {
            return messages;
        }
        int recentBudget = (int) (budgetTokens * keepRecentRatio);
        List<Message> recent = new ArrayList<>();
        int recentTokens = 0;
        for (int i = messages.size() - 1; i >= 0; i--) {
            int tokens = counter.countMessages(List.of(messages.get(i)));
            if (recentTokens + tokens > recentBudget && !recent.isEmpty()) {
                break;
            }
            recentTokens += tokens;
            recent.add(messages.get(i));
        }
        Collections.reverse(recent);
        int summarized = messages.size() - recent.size();
        if (summarized <= 0) {
            return messages;
        }
        String summary = summary(messages.subList(0, summarized));
        List<Message> result = withSummary(summary, recent);
        int tokens = counter.countMessages(result);
        while (tokens > budgetTokens && recent.size() > 1) {
            recent = recent.subList(1, recent.size());
            result = withSummary(summary, recent);
            tokens = counter.countMessages(result);
        }
        while (tokens > budgetTokens) {
            int half = Text.utf8Length(summary) / 2;
            if (half == 0) {
                break;
            }
            String cut = Text.truncate(summary, half);
            if (cut.equals(summary)) {
                break;
            }
            summary = cut;
            result = withSummary(summary, recent);
            tokens = counter.countMessages(result);
        }
        return List.copyOf(result);
    }

    private static List<Message> withSummary(String summary, List<Message> recent) {
        List<Message> result = new ArrayList<>(recent.size() + 1);
        result.add(Message.system(summary));
        result.addAll(recent);
        return result;
    }

    /**
     * The older messages as numbered user lines ({@code N. User: } and 120 code points) each followed by the
     * assistant answers ({@code    Assistant: } and 80), stopping before 1500 bytes; system and tool messages are
     * skipped, images read {@code [image attached]}.
     */
    static String summary(List<Message> older) {
        if (older.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder(SUMMARY_HEADER);
        int bytes = Text.utf8Length(SUMMARY_HEADER);
        int exchange = 0;
        for (Message message : older) {
            String line;
            if (message.role().equals("user")) {
                exchange++;
                line = exchange + ". User: " + Text.truncate(userText(message), 120) + "\n";
            } else if (message.role().equals("assistant") && exchange > 0) {
                line = "   Assistant: " + Text.truncate(message.content(), 80) + "\n";
            } else {
                continue;
            }
            int lineBytes = Text.utf8Length(line);
            if (bytes + lineBytes > MAX_SUMMARY_BYTES) {
                break;
            }
            text.append(line);
            bytes += lineBytes;
        }
        return exchange == 0 ? NO_USER_MESSAGES : text.toString();
    }

    /** A user message's text: its blocks' text with images as {@code [image attached]}, or its content. */
    static String userText(Message message) {
        List<ContentBlock> blocks = message.effectiveBlocks();
        if (blocks.isEmpty()) {
            return message.content();
        }
        StringBuilder text = new StringBuilder();
        for (ContentBlock block : blocks) {
            if (block.type().equals("text")) {
                text.append(block.text());
            } else if (block.type().equals("image")) {
                text.append("[image attached]");
            }
        }
        return text.toString();
    }

    /**
     * {@code messages} compacted by count with the strategy {@code settings} name: a sliding window with a note
     * {@code [... M earlier conversation messages omitted by sliding-window compaction ...]}; summarization in
     * blocks; or hierarchical, with the distant zone in ONE summary. A summarizing strategy that has something to
     * summarize needs {@code summarizer} and fails ({@link SummaryFailed}) when it fails. Then, when
     * {@code budgetTokens} is above 0 and {@code counter} is given, the oldest messages are dropped while over budget
     * (the last one always stays).
     */
    public static List<Message> compact(List<Message> messages, StrategySettings settings, Summarizer summarizer,
            TokenCounter counter, int budgetTokens) {
        if (messages == null || messages.isEmpty()) {
            return List.of();
        }
        List<Message> input = List.copyOf(messages);
        List<Message> result = switch (settings.name()) {
            case "summarization" -> summarizing(input, settings, summarizer, counter);
            case "hierarchical" -> hierarchical(input, settings, summarizer, counter);
            default -> sliding(input, settings);
        };
        if (budgetTokens <= 0 || counter == null) {
            return result;
        }
        int start = 0;
        while (start < result.size() - 1
                && counter.countMessages(result.subList(start, result.size())) > budgetTokens) {
            start++;
        }
        return List.copyOf(result.subList(start, result.size()));
    }

    private static List<Message> sliding(List<Message> messages, StrategySettings settings) {
        int keepFirst = settings.keepFirstOrDefault();
        int keepLast = settings.slidingKeepLastOrDefault();
        int n = messages.size();
        if (n <= keepFirst + keepLast) {
            return messages;
        }
        List<Message> result = new ArrayList<>(messages.subList(0, keepFirst));
        result.add(Message.system("[... " + (n - keepFirst - keepLast)
                + " earlier conversation messages omitted by sliding-window compaction ...]"));
        result.addAll(messages.subList(n - keepLast, n));
        return List.copyOf(result);
    }

    private static List<Message> summarizing(List<Message> messages, StrategySettings settings, Summarizer summarizer,
            TokenCounter counter) {
        int keepLast = settings.summarizationKeepLastOrDefault();
        int n = messages.size();
        if (n <= keepLast) {
            return messages;
        }
        required(summarizer, "summarization");
        List<Message> result = new ArrayList<>(blocks(messages.subList(0, n - keepLast),
                settings.blockSizeOrDefault(), 0, settings, summarizer, counter));
        result.addAll(messages.subList(n - keepLast, n));
        return List.copyOf(result);
    }

    private static List<Message> hierarchical(List<Message> messages, StrategySettings settings,
            Summarizer summarizer, TokenCounter counter) {
        int n = messages.size();
        int[] zones = zones(n, settings);
        int distant = zones[0];
        int middle = zones[1];
        if (distant + middle <= 0) {
            return messages;
        }
        required(summarizer, "hierarchical");
        List<Message> result = new ArrayList<>(blocks(messages.subList(0, distant), distant, 0, settings,
                summarizer, counter));
        result.addAll(blocks(messages.subList(distant, distant + middle), settings.blockSizeOrDefault(), distant,
                settings, summarizer, counter));
        result.addAll(messages.subList(distant + middle, n));
        return List.copyOf(result);
    }

    /** The sizes of the distant and middle zones of {@code n} messages; both 0 when there is no distant zone. */
    static int[] zones(int n, StrategySettings settings) {
        double distant = settings.distantOrDefault();
        double middle = settings.middleOrDefault();
        double recent = settings.recentOrDefault();
        double total = distant + middle + recent;
        if (total > 0 && total != 1.0) {
            distant /= total;
            middle /= total;
        }
        int distantEnd = (int) (n * distant);
        int middleEnd = (int) (n * (distant + middle));
        if (middleEnd >= n) {
            middleEnd = n - 1;
        }
        if (distantEnd > middleEnd) {
            distantEnd = middleEnd;
        }
        if (distantEnd <= 0) {
            return new int[] {0, 0};
        }
        return new int[] {distantEnd, middleEnd - distantEnd};
    }

    private static void required(Summarizer summarizer, String strategy) {
        if (summarizer == null) {
            throw new SummaryFailed("Conversation compaction with " + strategy + " needs a summarizer and none is "
                    + "configured; configure one or use sliding_window.", null);
        }
    }

    /**
     * The blocks of {@code messages} summarized, all asked in one {@link Summarizer#summarizeEach}; the first block
     * (in order) the summarizer failed on makes the whole compaction fail.
     */
    private static List<Message> blocks(List<Message> messages, int blockSize, int offset, StrategySettings settings,
            Summarizer summarizer, TokenCounter counter) {
        int size = Math.max(blockSize, 1);
        List<String> texts = new ArrayList<>();
        for (int start = 0; start < messages.size(); start += size) {
            texts.add(SummaryText.capped(blockText(messages.subList(start, Math.min(start + size, messages.size())),
                    settings.observationTruncateOrDefault()), counter, settings.maxSummarizeTokensOrDefault()));
        }
        List<Summarizer.Answer> answers = SummaryText.answers(summarizer, texts);
        List<Message> summaries = new ArrayList<>();
        for (int b = 0; b < answers.size(); b++) {
            Summarizer.Answer answer = answers.get(b);
            if (answer.failed()) {
                int start = b * size;
                int end = Math.min(start + size, messages.size());
                throw new SummaryFailed("Summarizing conversation messages " + (offset + start + 1) + "-"
                        + (offset + end) + " failed: " + SummaryText.reason(answer.failure()) + ". Retry, or use "
                        + "sliding_window.", answer.failure());
            }
            summaries.add(Message.system(answer.summary()));
        }
        return summaries;
    }

    /** Each message as {@code role: text}, its text cut to {@code max} code points when over {@code max} bytes. */
    static String blockText(List<Message> messages, int max) {
        StringBuilder text = new StringBuilder();
        for (Message message : messages) {
            String content = message.role().equals("user") ? userText(message) : message.content();
            if (max > 0 && Text.utf8Length(content) > max) {
                content = Text.truncate(content, max);
            }
            text.append(message.role()).append(": ").append(content).append('\n');
        }
        return text.toString();
    }
}
