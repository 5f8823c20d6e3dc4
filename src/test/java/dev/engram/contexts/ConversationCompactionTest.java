package dev.engram.contexts;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.kernel.SummaryFailed;
import dev.engram.contexts.messages.Text;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.ToolCall;
import static dev.engram.contexts.Steps.contents;
import static dev.engram.contexts.Steps.roles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Conversation compaction (SPEC §5): the budget helper of e07fe4f and the count-based strategies. */
class ConversationCompactionTest {

    private static final TokenCounter SIMPLE = TokenCounter.simple();

    private static List<Message> exchanges(int n) {
        List<Message> messages = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            messages.add(Message.user("Question " + i + " about task " + "x".repeat(50)));
            messages.add(Message.assistant("This is an assistant response about task " + "x".repeat(50)));
        }
        return messages;
    }

    @Test
    void toBudgetSummarizesTheOlderMessagesAndKeepsTheNewest() {
        List<Message> messages = exchanges(50);
        int total = SIMPLE.countMessages(messages);
        List<Message> result = ConversationCompaction.toBudget(messages, total / 10, SIMPLE, 0.75);
        assertTrue(result.size() < messages.size());
        assertEquals("system", result.get(0).role());
        assertTrue(result.get(0).content().startsWith("Previous conversation history (summarised):\n1. User: "));
        assertTrue(SIMPLE.countMessages(result) <= total / 10);
        assertEquals(messages.get(messages.size() - 1), result.get(result.size() - 1));
        assertSame(messages, ConversationCompaction.toBudget(messages, total, SIMPLE, 0.75));
    }

    @Test
    void toBudgetHalvesTheSummaryWhenOnlyTheNewestIsLeft() {
        List<Message> messages = List.of(Message.user("u".repeat(400)), Message.assistant("a".repeat(400)),
                Message.user("last " + "z".repeat(100)));
        List<Message> result = ConversationCompaction.toBudget(messages, 60, SIMPLE, 0.75);
        assertEquals(2, result.size());
        assertEquals(messages.get(2), result.get(1));
        assertTrue(result.get(0).content().endsWith("…"), result.get(0).content());
        assertTrue(SIMPLE.countMessages(result) <= 60);
    }

    @Test
    void summaryLinesAndTheirLimits() {
        List<Message> older = List.of(Message.assistant("before any user"), Message.system("rules"),
                Message.user("first " + "q".repeat(200)), Message.tool("c1", "tool output"),
                Message.assistant("answer " + "a".repeat(100)),
                new Message("user", "", List.of(ContentBlock.text("see "), ContentBlock.image("AAA", "image/png")),
                        "", List.of(), List.of(), ""));
        String summary = ConversationCompaction.summary(older);
        assertEquals("Previous conversation history (summarised):\n"
                + "1. User: first " + "q".repeat(113) + "…\n"
                + "   Assistant: answer " + "a".repeat(72) + "…\n"
                + "2. User: see [image attached]\n", summary);
        assertEquals("[No previous user messages to summarise]",
                ConversationCompaction.summary(List.of(Message.assistant("hello"))));
        List<Message> many = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            many.add(Message.user("question number " + i));
        }
        assertTrue(Text.utf8Length(ConversationCompaction.summary(many)) <= 1500);
    }

    @Test
    void userTextReadsBlocksWithImagesAsPlaceholders() {
        ContentBlock image = ContentBlock.image("abc", "image/png");
        record Case(String content, List<ContentBlock> blocks, String expected) {
        }
        for (Case c : List.of(new Case("hello", null, "hello"), new Case("hello", List.of(), "hello"),
                new Case("ignored", List.of(ContentBlock.text("block text")), "block text"),
                new Case("", List.of(image), "[image attached]"),
                new Case("Describe", List.of(image), "Describe[image attached]"),
                new Case("ignored", List.of(ContentBlock.text("look"), image), "look[image attached]"),
                new Case("ignored", List.of(ContentBlock.text("keep"), new ContentBlock("audio", "drop", "", "")),
                        "keep"))) {
            Message message = new Message("user", c.content(), c.blocks(), "", List.of(), List.of(), "");
            assertEquals(c.expected(), ConversationCompaction.userText(message));
        }
    }

    @Test
    void slidingWindowByCount() {
        List<Message> messages = exchanges(10);
        List<Message> result = ConversationCompaction.compact(messages, StrategySettings.slidingWindow(2, 3), null,
                null, 0);
        assertEquals(6, result.size());
        assertEquals("[... 15 earlier conversation messages omitted by sliding-window compaction ...]",
                result.get(2).content());
        assertEquals(messages.get(19), result.get(5));
        List<Message> shortOne = exchanges(2);
        assertEquals(shortOne, ConversationCompaction.compact(shortOne, StrategySettings.named("sliding_window"),
                null, null, 0));
    }

    @Test
    void summarizationByCountAndItsRefusals() {
        List<Message> messages = exchanges(6);
        List<String> received = new ArrayList<>();
        StrategySettings settings = new StrategySettings("summarization", 0, 4, 3, 20, 0, 0, 0, 0);
        List<Message> result = ConversationCompaction.compact(messages, settings, text -> {
            received.add(text);
            return "S" + received.size();
        }, null, 0);
        assertEquals(List.of("S1", "S2", "S3"), contents(result.subList(0, 3)));
        assertEquals(messages.subList(8, 12), result.subList(3, 7));
        assertEquals("user: Question 1 about ta…\nassistant: This is an assistan…\n"
                + "user: Question 2 about ta…\n", received.get(0));

        List<Message> fallback = ConversationCompaction.compact(messages, settings, null, null, 0);
        assertEquals(List.of("[... 3 earlier conversation messages omitted: no summarizer ...]",
                "[... 3 earlier conversation messages omitted: no summarizer ...]",
                "[... 2 earlier conversation messages omitted: no summarizer ...]"),
                contents(fallback.subList(0, 3)));
        assertEquals(messages.subList(8, 12), fallback.subList(3, 7));
        assertEquals(exchanges(2), ConversationCompaction.compact(exchanges(2), settings, null, null, 0));

        RuntimeException cause = new IllegalStateException("model unavailable");
        SummaryFailed failed = assertThrows(SummaryFailed.class, () -> ConversationCompaction.compact(messages,
                settings, text -> {
                    throw cause;
                }, null, 0));
        assertSame(cause, failed.getCause());
        assertTrue(failed.getMessage().contains("messages 1-3 failed: model unavailable"), failed.getMessage());
    }

    @Test
    void hierarchicalPutsTheDistantZoneInOneSummary() {
        List<Message> messages = exchanges(10);
        List<Integer> sizes = new ArrayList<>();
        List<Message> result = ConversationCompaction.compact(messages, StrategySettings.named("hierarchical"),
                text -> {
                    sizes.add(text.split("\n").length);
                    return "summary";
                }, null, 0);
        assertEquals(List.of(8, 6), sizes);
        assertEquals(2 + 6, result.size());
        assertEquals(messages.subList(14, 20), result.subList(2, 8));
        List<Message> two = exchanges(1);
        assertEquals(two, ConversationCompaction.compact(two, StrategySettings.named("hierarchical"), null, null, 0));
    }

    @Test
    void theLastMessageStaysAndTheInputIsUntouched() {
        List<Message> messages = new ArrayList<>(exchanges(8));
        List<Message> copy = List.copyOf(messages);
        for (String name : StrategySettings.NAMES) {
            List<Message> result = ConversationCompaction.compact(messages, StrategySettings.named(name),
                    text -> "s", SIMPLE, 1);
            assertEquals(copy, messages);
            assertEquals(List.of(messages.get(messages.size() - 1)), result, name);
        }
        List<Message> tight = List.of(Message.user("a".repeat(300)), Message.assistant("b".repeat(300)),
                Message.user("c".repeat(40)), Message.assistant("d".repeat(40)));
        List<Message> fitted = ConversationCompaction.toBudget(tight, 60, SIMPLE, 0.75);
        assertEquals(List.of("system", "assistant"), roles(fitted));
        assertEquals(tight.get(3), fitted.get(1));
        assertTrue(SIMPLE.countMessages(fitted) <= 60);
        List<Message> roomy = ConversationCompaction.toBudget(tight, 120, SIMPLE, 0.75);
        assertEquals(List.of("system", "user", "assistant"), roles(roomy));
    }

    @Test
    void anUnknownStrategyIsRefused() {
        Invalid refused = assertThrows(Invalid.class, () -> StrategySettings.named("magic"));
        assertEquals("strategy-unknown", refused.rule());
        assertEquals("strategy.name", refused.field());
    }

    /** A user question, an assistant calling {@code calls} tools, their results, and the assistant's answer. */
    private static List<Message> toolExchange(int i, int calls) {
        List<Message> messages = new ArrayList<>();
        messages.add(Message.user("Question " + i + " " + "q".repeat(40)));
        Message call = new Message("assistant", "", List.of(), "", List.of(), List.of(), "");
        for (int c = 0; c < calls; c++) {
            call = call.withCall(new ToolCall("call_" + i + "_" + c, "read_file", "{\"path\": \"f" + c + "\"}"));
        }
        messages.add(call);
        for (int c = 0; c < calls; c++) {
            messages.add(Message.tool("call_" + i + "_" + c, "contents " + "r".repeat(60)));
        }
        messages.add(Message.assistant("Answer " + i + " " + "a".repeat(40)));
        return messages;
    }

    private static List<Message> toolConversation(int exchanges) {
        List<Message> messages = new ArrayList<>(List.of(Message.system("Never deploy on Friday."),
                new Message("developer", "Answer in English.", List.of(), "", List.of(), List.of(), "")));
        for (int i = 1; i <= exchanges; i++) {
            messages.addAll(toolExchange(i, 1 + i % 3));
        }
        return messages;
    }

    /**
     * What both providers require of a request's messages: each assistant message's calls answered, each by exactly
     * one tool message, all of them right after it; no tool message without its call; no message before the
     * instructions.
     */
    static void assertPaired(List<Message> messages, String what) {
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m.role().equals("assistant") && !m.toolCalls().isEmpty()) {
                List<String> ids = m.toolCalls().stream().map(ToolCall::id).sorted().toList();
                List<String> answered = new ArrayList<>();
                int j = i + 1;
                while (j < messages.size() && messages.get(j).role().equals("tool")) {
                    answered.add(messages.get(j++).toolCallId());
                }
                if (j < messages.size() || !answered.isEmpty()) {
                    assertEquals(ids, answered.stream().sorted().toList(), what + ": the results after message " + i);
                }
                i = j - 1;
            } else {
                assertTrue(!m.role().equals("tool"), what + ": message " + i + " is a tool result without its call");
            }
        }
    }

    @Test
    void noStrategyOrBudgetCutsInsideAToolExchange() {
        for (int exchanges = 1; exchanges <= 12; exchanges++) {
            List<Message> messages = toolConversation(exchanges);
            for (String name : StrategySettings.NAMES) {
                for (int keepFirst = 0; keepFirst <= 6; keepFirst++) {
                    for (int keepLast = 0; keepLast <= 9; keepLast++) {
                        StrategySettings settings = new StrategySettings(name, keepFirst, keepLast, 1 + keepLast % 4,
                                0, 0, 0, 0, 0);
                        for (int budget : new int[] {0, 40, 150, 400}) {
                            String what = name + " first " + keepFirst + " last " + keepLast + " budget " + budget
                                    + " of " + messages.size();
                            List<Message> result = ConversationCompaction.compact(messages, settings, text -> "S",
                                    SIMPLE, budget);
                            assertPaired(result, what);
                            assertEquals(messages.subList(0, 2), result.subList(0, 2), what);
                            assertEquals(messages.get(messages.size() - 1), result.get(result.size() - 1), what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void theWindowGrowsToKeepAnExchangeWhole() {
        List<Message> messages = new ArrayList<>(List.of(Message.system("Never deploy on Friday.")));
        messages.addAll(toolExchange(1, 2));
        messages.addAll(toolExchange(2, 1));
        messages.addAll(toolExchange(3, 2));
        // 1 + 5 + 4 + 5 messages; keep_last 3 would start at exchange 3's second result: the tail grows back to its call
        List<Message> result = ConversationCompaction.compact(messages, StrategySettings.slidingWindow(2, 3), null,
                null, 0);
        assertEquals(messages.subList(0, 2), result.subList(0, 2));
        assertEquals("[... 9 earlier conversation messages omitted by sliding-window compaction ...]",
                result.get(2).content());
        assertEquals(messages.subList(11, 15), result.subList(3, 7));
        // keep_first 3 ends on exchange 1's call: the head grows forward to its last result
        List<Message> head = ConversationCompaction.compact(messages, StrategySettings.slidingWindow(3, 1), null,
                null, 0);
        assertEquals(messages.subList(0, 5), head.subList(0, 5));
        assertEquals("[... 9 earlier conversation messages omitted by sliding-window compaction ...]",
                head.get(5).content());
    }

    @Test
    void instructionsAreNeverSummarizedNorDroppedForTheBudget() {
        List<Message> messages = toolConversation(6);
        List<String> sent = new ArrayList<>();
        for (String name : List.of("summarization", "hierarchical")) {
            sent.clear();
            List<Message> result = ConversationCompaction.compact(messages, StrategySettings.named(name), text -> {
                sent.add(text);
                return "summary";
            }, SIMPLE, 0);
            assertEquals(messages.subList(0, 2), result.subList(0, 2), name);
            assertTrue(sent.stream().noneMatch(text -> text.contains("Friday") || text.contains("English")),
                    name + " sent " + sent);
        }
        List<Message> tight = ConversationCompaction.compact(messages, StrategySettings.named("sliding_window"), null,
                SIMPLE, 1);
        assertEquals(messages.subList(0, 2), tight.subList(0, 2));
        assertEquals(messages.get(messages.size() - 1), tight.get(tight.size() - 1));
    }
}
