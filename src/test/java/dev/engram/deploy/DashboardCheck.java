package dev.engram.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every metric the Grafana dashboard's queries name is one Engram exports at /q/metrics: a renamed meter otherwise
 * leaves an empty panel that nobody notices until it is needed.
 */
final class DashboardCheck {

    /** The dashboard, from the project's root. */
    static final java.nio.file.Path DASHBOARD = java.nio.file.Path.of("deployment/grafana/engram-dashboard.json");

    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset", "inf", "nan", "atan2");
    private static final Pattern LABEL_VALUES_OF = Pattern.compile("label_values\\(\\s*([^,()]+?)\\s*,\\s*\\w+\\s*\\)");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*\\w+\\s*\\)");
    private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?\\w+(?::\\w+)?}?");
    private static final Pattern NAME = Pattern.compile("(?<![\\w:.])([A-Za-z_:][\\w:]*+)(?!\\s*\\()");

    private final Set<String> exported;

    /** {@code exported}: the names of the samples /q/metrics answers. */
    DashboardCheck(Set<String> exported) {
        this.exported = Set.copyOf(exported);
    }

    List<String> problems(String dashboard) {
        List<String> problems = new ArrayList<>();
        List<String> queries = queries(dashboard);
        if (queries.isEmpty()) {
            problems.add("The dashboard has no queries");
        }
        for (String query : queries) {
            for (String name : metricNames(query)) {
                if (!exported.contains(name)) {
                    problems.add("The dashboard asks for " + name + ", which Engram does not export (in: " + query
                            + ")");
                }
            }
        }
        return problems;
    }

    /** Every PromQL query of the dashboard: its panels' targets (rows' panels too) and its query variables. */
    static List<String> queries(String dashboard) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(dashboard);
        } catch (IOException e) {
            throw new UncheckedIOException("The dashboard is no JSON", e);
        }
        List<String> queries = new ArrayList<>();
        panels(root.path("panels"), queries);
        for (JsonNode variable : root.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query")) {
                JsonNode q = variable.path("query");
                queries.add(q.isObject() ? q.path("query").asText() : q.asText());
            }
        }
        return queries;
    }

    private static void panels(JsonNode panels, List<String> queries) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    queries.add(target.get("expr").asText());
                }
            }
            panels(panel.path("panels"), queries);
        }
    }

    /**
     * The metric names a PromQL expression (or a Grafana {@code label_values} query) reads: identifiers left once
     * strings, label matchers, ranges, grouping clauses, variables, functions and keywords are taken out.
     */
    static Set<String> metricNames(String query) {
        String q = LABEL_VALUES_OF.matcher(query).replaceAll("$1");
        q = LABEL_VALUES.matcher(q).replaceAll(" ");
        q = STRING.matcher(q).replaceAll(" ");
        q = MATCHERS.matcher(q).replaceAll(" ");
        q = RANGE.matcher(q).replaceAll(" ");
        q = GROUPING.matcher(q).replaceAll(" ");
        q = VARIABLE.matcher(q).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(q);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group(1).toLowerCase(java.util.Locale.ROOT))) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The sample names of a Prometheus text exposition. */
    static Set<String> exported(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }
}
