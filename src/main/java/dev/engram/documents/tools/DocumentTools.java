package dev.engram.documents.tools;

import dev.engram.documents.tool.MemoryTool;
import dev.engram.tools.ToolDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claude's memory tool as a tool like Engram's others, for a model API or an MCP client that does not have it built
 * in: one tool {@value #NAME} taking the {@code memory_20250818} commands, run by {@link MemoryTool}. A model API that
 * has the tool (Anthropic's) is offered its own type instead, {@value #ANTHROPIC_TYPE}.
 */
public final class DocumentTools {

    /** The tool's name, the one Claude's memory tool has. */
    public static final String NAME = "memory";
    /** The tool's type on Anthropic's Messages API. */
    public static final String ANTHROPIC_TYPE = "memory_20250818";

    private DocumentTools() {
    }

    /** Whether {@code name} is this tool. */
    public static boolean handles(String name) {
        return NAME.equals(name);
    }

    /** The tool's definition, the same for every store. */
    public static ToolDefinition definition() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("command", Map.of("type", "string", "enum", List.of("view", "create", "str_replace",
                "insert", "delete", "rename"), "description", "What to do."));
        properties.put("path", text("The file or directory, under /memories (view, create, str_replace, insert, "
                + "delete)."));
        properties.put("view_range", Map.of("type", "array", "items", Map.of("type", "integer"), "minItems", 2,
                "maxItems", 2, "description", "view: the first and last line to show, 1-based; -1 as the last "
                + "for the end of the file."));
        properties.put("file_text", text("create: the new file's content."));
        properties.put("old_str", text("str_replace: the exact text to replace, which must occur once."));
        properties.put("new_str", text("str_replace: the text to put in its place."));
        properties.put("insert_line", Map.of("type", "integer", "minimum", 0, "description", "insert: the line "
                + "after which to insert, 0 for the top."));
        properties.put("insert_text", text("insert: the text to insert."));
        properties.put("old_path", text("rename: the file or directory to move."));
        properties.put("new_path", text("rename: where to move it; it must not exist."));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", List.of("command"));
        schema.put("additionalProperties", false);
        return new ToolDefinition(NAME, "Memory files", "Your memory directory, /memories, kept between "
                + "conversations. View it before you start; record progress, decisions and what you learn about the "
                + "user in files there as you go, and keep them organized: view a directory (two levels deep) or a "
                + "file (numbered lines), create a file, str_replace or insert text in one, delete or rename a file "
                + "or a directory.", schema, new ToolDefinition.Annotations(false, true, false, false));
    }

    private static Map<String, Object> text(String description) {
        return Map.of("type", "string", "description", description);
    }
}
