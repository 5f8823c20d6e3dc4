package dev.engram.contexts;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.kernel.SummaryFailed;
import dev.engram.contexts.messages.Text;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.kernel.Invalid;
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
     * blocks; or hierarchical, with the distant zone in ONE summary. Then, when {@code budgetTokens} is above 0 and
     * {@code counter} is given, the oldest exchanges are dropped while over budget (the last one always stays).
     *
     * <p>Two things are never cut: the instructions (the leading {@code system} and {@code developer} messages) are
     * kept verbatim, never summarized, omitted nor dropped for the budget ({@code keep_first} counts them); and a
     * tool exchange (an assistant message with tool calls and the {@code tool} messages right after it) stays whole
     * or goes whole ({@link #exchangeStarts}). Where a strategy's count would cut inside an exchange the cut moves to
     * the exchange's edge on the side that keeps it: the kept head grows forward to the exchange's end and the kept
     * tail grows back to its call, so a kept result always has its call and a kept call its results. A summarizing
     * strategy without a {@code summarizer} puts a fallback text in each block's place
     * ({@code [... K earlier conversation messages omitted: no summarizer ...]}); one whose summarizer fails on a
     * block fails ({@link SummaryFailed}).
     */
    public static List<Message> compact(List<Message> messages, StrategySettings settings, Summarizer summarizer,
            TokenCounter counter, int budgetTokens) {
        if (messages == null || messages.isEmpty()) {
            return List.of();
        }
        List<Message> input = List.copyOf(messages);
        int pinned = instructions(input);
        List<Message> instructions = input.subList(0, pinned);
        List<Message> history = input.subList(pinned, input.size());
        List<Message> compacted = history.isEmpty() ? history : switch (settings.name()) {
            case "summarization" -> summarizing(history, settings, summarizer, counter);
            case "hierarchical" -> hierarchical(history, settings, summarizer, counter);
            default -> sliding(history, Math.max(0, settings.keepFirstOrDefault() - pinned),
                    settings.slidingKeepLastOrDefault());
        };
        if (budgetTokens > 0 && counter != null && !compacted.isEmpty()) {
            compacted = dropOldest(instructions, compacted, counter, budgetTokens);
        }
        if (compacted == history) {
            return input;
        }
        List<Message> result = new ArrayList<>(instructions);
        result.addAll(compacted);
        return List.copyOf(result);
    }

    /** How many leading messages are instructions: {@code system} or {@code developer}, before any other role. */
    public static int instructions(List<Message> messages) {
        int n = 0;
        while (n < messages.size() && isInstruction(messages.get(n))) {
            n++;
        }
        return n;
    }

    private static boolean isInstruction(Message m) {
        return m.role().equals("system") || m.role().equals("developer");
    }

    /**
     * Where {@code messages} may be cut: {@code starts[i]} is true when a cut just before message {@code i} leaves
     * every tool exchange whole, which is everywhere except before a {@code tool} message that follows an assistant
     * message with tool calls or another such {@code tool} message; {@code starts[0]} and {@code starts[n]} are true.
     */
    public static boolean[] exchangeStarts(List<Message> messages) {
        boolean[] starts = new boolean[messages.size() + 1];
        boolean inExchange = false;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            boolean result = m.role().equals("tool");
            starts[i] = !(result && inExchange);
            inExchange = result ? inExchange : m.role().equals("assistant") && !m.toolCalls().isEmpty();
        }
        starts[messages.size()] = true;
        return starts;
    }

    /** The first cut at or after {@code i} that keeps exchanges whole. */
    private static int cutAtOrAfter(boolean[] starts, int i) {
        int at = Math.max(0, i);
        while (!starts[at]) {
            at++;
        }
        return at;
    }

    /** The last cut at or before {@code i} that keeps exchanges whole. */
    private static int cutAtOrBefore(boolean[] starts, int i) {
        int at = Math.min(starts.length - 1, i);
        while (!starts[at]) {
            at--;
        }
        return at;
    }

    /**
     * {@code history} with its oldest exchanges dropped while {@code instructions} and it count more than the budget;
     * the last exchange always stays.
     */
    private static List<Message> dropOldest(List<Message> instructions, List<Message> history, TokenCounter counter,
            int budgetTokens) {
        boolean[] starts = exchangeStarts(history);
        int last = cutAtOrBefore(starts, history.size() - 1);
        int start = 0;
        while (start < last && counter.countMessages(joined(instructions, history.subList(start, history.size())))
                > budgetTokens) {
            start = cutAtOrAfter(starts, start + 1);
        }
        return start == 0 ? history : List.copyOf(history.subList(start, history.size()));
    }

    private static List<Message> joined(List<Message> instructions, List<Message> history) {
        List<Message> all = new ArrayList<>(instructions);
        all.addAll(history);
        return all;
    }

    private static List<Message> sliding(List<Message> messages, int keepFirst, int keepLast) {
        int n = messages.size();
        if (n <= keepFirst + keepLast) {
            return messages;
        }
        boolean[] starts = exchangeStarts(messages);
        int headEnd = cutAtOrAfter(starts, keepFirst);
        int tailStart = cutAtOrBefore(starts, n - keepLast);
        if (headEnd >= tailStart) {
            return messages;
        }
        List<Message> result = new ArrayList<>(messages.subList(0, headEnd));
        result.add(Message.system("[... " + (tailStart - headEnd)
                + " earlier conversation messages omitted by sliding-window compaction ...]"));
        result.addAll(messages.subList(tailStart, n));
        return List.copyOf(result);
    }

    private static List<Message> summarizing(List<Message> messages, StrategySettings settings, Summarizer summarizer,
            TokenCounter counter) {
        int keepLast = settings.summarizationKeepLastOrDefault();
        int n = messages.size();
        if (n <= keepLast) {
            return messages;
        }
        int tailStart = cutAtOrBefore(exchangeStarts(messages), n - keepLast);
        if (tailStart <= 0) {
            return messages;
        }
        List<Message> result = new ArrayList<>(blocks(messages.subList(0, tailStart),
                settings.blockSizeOrDefault(), 0, settings, summarizer, counter));
        result.addAll(messages.subList(tailStart, n));
        return List.copyOf(result);
    }

    private static List<Message> hierarchical(List<Message> messages, StrategySettings settings,
            Summarizer summarizer, TokenCounter counter) {
        int n = messages.size();
        int[] zones = zones(n, settings);
        int recentStart = cutAtOrBefore(exchangeStarts(messages), zones[0] + zones[1]);
        if (zones[0] + zones[1] <= 0 || recentStart <= 0) {
            return messages;
        }
        int distant = Math.min(zones[0], recentStart);
        int middle = recentStart - distant;
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
            if (answer == null) {
                int start = b * size;
                summaries.add(Message.system("[... " + (Math.min(start + size, messages.size()) - start)
                        + " earlier conversation messages omitted: no summarizer ...]"));
                continue;
            }
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
