package dev.engram.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** Copies of a valid JSON body, each with one node or member name changed: the shapes made from valid requests. */
final class JsonShapes {

    static final ObjectMapper JSON = new ObjectMapper();

    static final String MARK = "QQBADQQ";

    private JsonShapes() {
    }

    /** The body with one member name (at any depth) given the mark. */
    static List<String> renamed(String json) {
        List<String> out = new ArrayList<>();
        JsonNode root = read(json);
        List<List<Object>> paths = new ArrayList<>();
        paths(root, new ArrayList<>(), paths);
        paths.add(List.of());
        for (List<Object> path : paths) {
            JsonNode node = at(root, path);
            if (!node.isObject()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode copy = root.deepCopy();
                var object = (com.fasterxml.jackson.databind.node.ObjectNode) at(copy, path);
                object.set(name + MARK, object.remove(name));
                out.add(copy.toString());
            }
        }
        return out;
    }

    /** Copies of {@code json}, each with one node (found by walking it) replaced by one of what {@code by} gives. */
    static List<String> each(String json, BiFunction<JsonNode, List<Object>,
            List<JsonNode>> by) {
        JsonNode root = read(json);
        List<List<Object>> paths = new ArrayList<>();
        paths(root, new ArrayList<>(), paths);
        List<String> out = new ArrayList<>();
        for (List<Object> path : paths) {
            for (JsonNode replacement : by.apply(at(root, path), path)) {
                JsonNode copy = root.deepCopy();
                JsonNode parent = at(copy, path.subList(0, path.size() - 1));
                Object last = path.get(path.size() - 1);
                if (last instanceof String name) {
                    ((com.fasterxml.jackson.databind.node.ObjectNode) parent).set(name, replacement);
                } else {
                    ((com.fasterxml.jackson.databind.node.ArrayNode) parent).set((Integer) last, replacement);
                }
                out.add(copy.toString());
            }
        }
        return out;
    }

    /** The path (member names and indexes) of every node below {@code node}. */
    static void paths(JsonNode node, List<Object> here, List<List<Object>> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(f -> {
                List<Object> p = new ArrayList<>(here);
                p.add(f.getKey());
                out.add(p);
                paths(f.getValue(), p, out);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> p = new ArrayList<>(here);
                p.add(i);
                out.add(p);
                paths(node.get(i), p, out);
            }
        }
    }

    static JsonNode at(JsonNode root, List<Object> path) {
        JsonNode n = root;
        for (Object step : path) {
            n = step instanceof String name ? n.get(name) : n.get((Integer) step);
        }
        return n;
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }
}
