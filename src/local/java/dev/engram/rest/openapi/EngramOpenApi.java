package dev.engram.rest.openapi;

import dev.engram.contexts.tools.ContextTools;
import dev.engram.entries.tools.EntryTools;
import dev.engram.memories.tools.RecallTools;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolOptions;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * What SmallRye OpenAPI cannot see in the resources, added to the document at build time so that a generated client
 * can use it: the bearer security scheme (docs/security.md), every refusal as an RFC 9457 problem with the statuses
 * each route answers, the 201s and 204s that resources return through {@code Response}, operation ids a generator
 * names methods after, the tools' real input schemas for {@code tools/call}'s {@code arguments}, and erase's
 * optional body. Names of members come from the naming strategy in microprofile-config.properties (snake_case, as
 * on the wire). Only the local build has SmallRye OpenAPI, so this class is in src/local; the production build serves
 * the document it made (ADR 0007).
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class EngramOpenApi implements OASFilter {

    static final String PROBLEM = "Problem";
    static final String PROBLEM_MEDIA = "application/problem+json";
    static final String SECURITY = "bearer";

    /** The problem responses, by status: their component name and what they mean. */
    static final Map<String, String[]> REFUSALS = refusals();

    /** Routes that answer 201 with the 200's body: a create; those in {@link #ONLY_CREATED} never answer 200. */
    static final Set<String> CREATED = Set.of("PUT /v1/stores/{store}", "PUT /v1/stores/{store}/contexts/{id}",
            "PUT /v1/stores/{store}/scopes/{scope}/entries/{name}", "POST /v1/stores/{store}/memories",
            "POST /v1/stores/{store}/memories/batch", "POST /v1/keys");
    static final Set<String> ONLY_CREATED = Set.of("POST /v1/stores/{store}/memories",
            "POST /v1/stores/{store}/memories/batch", "POST /v1/keys");

    /** Routes that answer 204 and no body, where the resource returns a {@code Response}. */
    static final Set<String> NO_CONTENT = Set.of("DELETE /v1/keys/{id}");

    /** Routes that use a model (a summarizer or a reflector): 409 when none is configured or the state moved, 502. */
    static final Set<String> MODEL = Set.of("POST /v1/compact", "POST /v1/stores/{store}/contexts/{id}/compact",
            "POST /v1/stores/{store}/banks/{bank}/reflect");

    /** Routes whose write is refused with 412 once concurrent writes outlast its deadline, even without If-Match. */
    static final Set<String> PRECONDITION = Set.of("PATCH /v1/stores/{store}/scopes/{scope}/entries/{name}");

    @Override
    public void filterOpenAPI(OpenAPI api) {
        Components components = api.getComponents() == null ? OASFactory.createComponents() : api.getComponents();
        api.setComponents(components);
        api.setServers(List.of(OASFactory.createServer().url("/")
                .description("The Engram that serves this document (/q/openapi)")));
        components.addSecurityScheme(SECURITY, OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("bearer").description("An API key Engram issued (POST /v1/keys), the operator key, or a JWT "
                        + "from the configured identity provider: Authorization: Bearer <token> (docs/security.md)."));
        api.setSecurity(List.of(OASFactory.createSecurityRequirement().addScheme(SECURITY)));
        components.addSchema(PROBLEM, problemSchema());
        REFUSALS.forEach((status, r) -> components.addResponse(r[0], refusal(status, r[1])));
        components.addSchema("Erase", object(Map.of("reason", string("Why the entry is erased (a deletion "
                + "request's reference); kept in the erasure record"))).additionalPropertiesBoolean(false));
        toolArguments(components);
        if (api.getPaths() != null) {
            api.getPaths().getPathItems().forEach((path, item) -> item.getOperations()
                    .forEach((method, op) -> operation(method.name() + " " + path, item, op)));
            closeRequestBodies(api, components);
        }
    }

    /**
     * The REST API refuses a member a body's type does not have (422, rule unknown-member; JsonSetup), so the
     * schemas only request bodies use say {@code additionalProperties: false}; those replies use too stay open, as a
     * client must accept members a later Engram adds.
     */
    private static void closeRequestBodies(OpenAPI api, Components components) {
        Set<String> requests = new TreeSet<>();
        Set<String> replies = new TreeSet<>();
        for (PathItem item : api.getPaths().getPathItems().values()) {
            for (Operation op : item.getOperations().values()) {
                if (op.getRequestBody() != null && op.getRequestBody().getContent() != null) {
                    op.getRequestBody().getContent().getMediaTypes().values()
                            .forEach(m -> reach(m.getSchema(), components, requests));
                }
                for (APIResponse r : op.getResponses().getAPIResponses().values()) {
                    if (r.getContent() != null) {
                        r.getContent().getMediaTypes().values().forEach(m -> reach(m.getSchema(), components, replies));
                    }
                }
            }
        }
        requests.removeAll(replies);
        for (String name : requests) {
            Schema s = components.getSchemas().get(name);
            if (s.getProperties() != null && s.getAdditionalPropertiesSchema() == null
                    && s.getAdditionalPropertiesBoolean() == null && !name.endsWith("Arguments")) {
                s.additionalPropertiesBoolean(false);
            }
        }
    }

    /** Adds to {@code names} the components {@code schema} refers to, and those they refer to. */
    private static void reach(Schema schema, Components components, Set<String> names) {
        if (schema == null) {
            return;
        }
        if (schema.getRef() != null) {
            String name = schema.getRef().substring(schema.getRef().lastIndexOf('/') + 1);
            if (names.add(name)) {
                reach(components.getSchemas().get(name), components, names);
            }
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(p -> reach(p, components, names));
        }
        reach(schema.getItems(), components, names);
        reach(schema.getAdditionalPropertiesSchema(), components, names);
        for (List<Schema> of : Arrays.asList(schema.getAnyOf(), schema.getOneOf(), schema.getAllOf())) {
            if (of != null) {
                of.forEach(o -> reach(o, components, names));
            }
        }
    }

    private static void operation(String route, PathItem item, Operation op) {
        op.setOperationId(operationId(op.getOperationId()));
        APIResponses responses = op.getResponses();
        if (CREATED.contains(route)) {
            APIResponse ok = responses.getAPIResponse("200");
            responses.addAPIResponse("201", OASFactory.createAPIResponse().description("Created")
                    .content(ok == null ? null : ok.getContent()));
            if (ONLY_CREATED.contains(route)) {
                responses.removeAPIResponse("200");
            }
        }
        if (NO_CONTENT.contains(route)) {
            responses.removeAPIResponse("200");
            responses.addAPIResponse("204", OASFactory.createAPIResponse().description("No Content"));
        }
        List<Parameter> parameters = new ArrayList<>();
        if (item.getParameters() != null) {
            parameters.addAll(item.getParameters());
        }
        if (op.getParameters() != null) {
            parameters.addAll(op.getParameters());
        }
        boolean body = op.getRequestBody() != null;
        boolean pathParameters = parameters.stream().anyMatch(p -> p.getIn() == Parameter.In.PATH);
        boolean ifMatch = parameters.stream().anyMatch(p -> "If-Match".equalsIgnoreCase(p.getName()));
        boolean ifNoneMatch = parameters.stream().anyMatch(p -> "If-None-Match".equalsIgnoreCase(p.getName()));
        if (route.startsWith("GET ") && ifNoneMatch) {
            responses.addAPIResponse("304", OASFactory.createAPIResponse().description("Not Modified: the entry's "
                    + "ETag matches If-None-Match"));
        }
        if (route.endsWith("/erase")) {
            op.setRequestBody(OASFactory.createRequestBody().required(false).description("Optional: an empty body "
                    + "(still with Content-Type: application/json) erases with no reason").content(json("Erase")));
            body = true;
        }
        List<String> statuses = new ArrayList<>(List.of("401", "403", "429", "500", "503"));
        if (body) {
            statuses.addAll(List.of("400", "408", "413", "415"));
        }
        if (body || !parameters.isEmpty()) {
            statuses.add("422");
        }
        if (pathParameters) {
            statuses.add("404");
        }
        if (ifMatch || PRECONDITION.contains(route)) {
            statuses.add("412");
        }
        if (MODEL.contains(route)) {
            statuses.addAll(List.of("409", "502"));
        }
        Map<String, APIResponse> all = new TreeMap<>(responses.getAPIResponses());
        for (String status : statuses) {
            all.put(status, OASFactory.createAPIResponse().ref("#/components/responses/" + REFUSALS.get(status)[0]));
        }
        responses.setAPIResponses(all);
    }

    /**
     * {@code EntryResource_patch} (SmallRye's CLASS_METHOD strategy) becomes {@code entryPatch}; a method that already
     * names its resource keeps its name ({@code SearchResource_search}: {@code search}); erasure is of an entry.
     */
    static String operationId(String classMethod) {
        if (classMethod == null) {
            return null;
        }
        int cut = classMethod.indexOf('_');
        String type = classMethod.substring(0, cut).replaceFirst("Resource$", "").replace("Erasure", "Entry");
        String noun = Character.toLowerCase(type.charAt(0)) + type.substring(1);
        String method = classMethod.substring(cut + 1);
        return method.startsWith(noun) ? method
                : noun + Character.toUpperCase(method.charAt(0)) + method.substring(1);
    }

    private static Map<String, String[]> refusals() {
        Map<String, String[]> r = new LinkedHashMap<>();
        r.put("400", new String[] {"BadRequest", "Malformed: the body is not JSON or not UTF-8, or empty where one "
                + "is required (type malformed, with rule and field)"});
        r.put("401", new String[] {"Unauthorized", "No bearer token, or an unknown, revoked, expired or malformed "
                + "one (type unauthorized; WWW-Authenticate: Bearer)"});
        r.put("403", new String[] {"Forbidden", "The token's grants do not allow this (type forbidden, with needs "
                + "and the scopes the key may read and write)"});
        r.put("404", new String[] {"NotFound", "No such store, entry, memory, context or key (type not-found)"});
        r.put("408", new String[] {"RequestTimeout", "The body did not arrive in time (type body-timeout, with "
                + "timeout_ms)"});
        r.put("409", new String[] {"Conflict", "No model configured for the work (reflector-not-configured, "
                + "summarizer-not-configured), or the state changed while it ran (bank-changed, context-changed)"});
        r.put("412", new String[] {"PreconditionFailed", "The entry is not at the version If-Match names, or kept "
                + "changing past the patch deadline (type precondition-failed, with want and have)"});
        r.put("413", new String[] {"ContentTooLarge", "The body is over the server's limit (body-too-large) or the "
                + "entry over the store's (too-large, with size, limit and stored)"});
        r.put("415", new String[] {"UnsupportedMediaType", "Every write sends Content-Type: application/json, also "
                + "without a body (type unsupported-media-type, with content_type)"});
        r.put("422", new String[] {"UnprocessableContent", "A member or parameter breaks a rule (type invalid, with "
                + "rule, such as unknown-member or member-type, and field), an Idempotency-Key reused for another "
                + "request (idempotency-key-reused), or a render bound too small (render-budget)"});
        r.put("429", new String[] {"TooManyRequests", "The key's rate or a quota is reached (rate-limited, quota, "
                + "with limit, max and retry_after)"});
        r.put("500", new String[] {"InternalError", "Engram failed; the log has the error_id (type internal)"});
        r.put("502", new String[] {"BadGateway", "The configured model failed or answered something unusable "
                + "(summarizer-failed, reflector-failed, reflector-answer)"});
        r.put("503", new String[] {"ServiceUnavailable", "The database is unavailable or the replica busy or "
                + "shutting down (unavailable, busy); retry after Retry-After"});
        return r;
    }

    private static APIResponse refusal(String status, String description) {
        APIResponse r = OASFactory.createAPIResponse().description(description)
                .content(OASFactory.createContent().addMediaType(PROBLEM_MEDIA, OASFactory.createMediaType()
                        .schema(ref(PROBLEM))));
        if (status.equals("429") || status.equals("503") || status.equals("502")) {
            r.addHeader("Retry-After", header("Seconds to wait before a retry, when waiting helps"));
        }
        if (status.equals("401")) {
            r.addHeader("WWW-Authenticate", header("Bearer, with error=\"invalid_token\" for a bad token"));
        }
        return r;
    }

    private static Header header(String description) {
        return OASFactory.createHeader().description(description)
                .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING));
    }

    /** Engram's problem (dev.engram.problems.Problem): RFC 9457's members, then those a type adds, all optional. */
    private static Schema problemSchema() {
        Map<String, Schema> p = new LinkedHashMap<>();
        p.put("type", string("https://engram.dev/problems/<slug>: stable, branch on it").format("uri"));
        p.put("title", string("The type's title"));
        p.put("status", integer("The HTTP status"));
        p.put("detail", string("What went wrong and what to do next"));
        p.put("instance", string("The request's path"));
        p.put("rule", string("Which rule a refused input broke (unknown-member, member-type, body-syntax, ...)"));
        p.put("field", string("The member or parameter it broke the rule in"));
        p.put("limit", OASFactory.createSchema().description("The limit reached: its name (a quota or rate) or its "
                + "size in bytes (a body, an entry)").anyOf(List.of(OASFactory.createSchema()
                        .addType(Schema.SchemaType.STRING), OASFactory.createSchema()
                        .addType(Schema.SchemaType.INTEGER))));
        p.put("max", integer("The limit's maximum"));
        p.put("retry_after", integer("Seconds to wait before a retry"));
        p.put("size", integer("The size in bytes that was refused"));
        p.put("stored", integer("The size in bytes the entry has now"));
        p.put("scope", string("The entry's scope"));
        p.put("name", string("The entry's name"));
        p.put("want", string("The version the request named"));
        p.put("have", string("The version the entry is at"));
        p.put("needs", string("The role or grant the request needs"));
        p.put("store", string("The store"));
        p.put("writable_scopes", strings("The scopes the key may write"));
        p.put("readable_scopes", strings("The scopes the key may read"));
        p.put("reflector", string("The reflector that failed"));
        p.put("error_id", string("The id under which the error is logged"));
        p.put("bound", integer("The render bound given"));
        p.put("needed", integer("The render bound needed"));
        p.put("content_type", string("The Content-Type refused"));
        p.put("timeout_ms", integer("The deadline that passed, in milliseconds"));
        p.put("accept", string("The Accept a request must send"));
        p.put("method", string("The method refused"));
        p.put("origin", string("The Origin refused"));
        p.put("session", string("The session named"));
        return object(p).required(List.of("type", "title", "status", "detail"))
                .description("An RFC 9457 problem; members after instance appear with the types that use them");
    }

    /**
     * {@code tools/call}'s {@code arguments}: one of the tools' input schemas, the ones {@code GET .../tools} lists
     * (memory tools with the scopes per call, so {@code scope} has no enum here), or the JSON text a model emitted.
     */
    private static void toolArguments(Components components) {
        List<ToolDefinition> tools = new ArrayList<>(EntryTools.perConnectionDefinitions(ToolOptions.DEFAULT));
        tools.addAll(RecallTools.definitions());
        tools.addAll(ContextTools.definitions());
        List<Schema> choices = new ArrayList<>();
        for (ToolDefinition t : tools) {
            String name = componentName(t.name()) + "Arguments";
            components.addSchema(name, schema(t.inputSchema()).title(t.name() + " arguments")
                    .description(t.title() + ": the arguments of a call of " + t.name()));
            choices.add(ref(name));
        }
        choices.add(string("The arguments as the JSON text a model emitted; parsed as one of the objects"));
        Schema arguments = OASFactory.createSchema().anyOf(choices).description("The tool's arguments: an object "
                + "as its input schema (GET .../tools) says, or the JSON string a model emitted");
        components.addSchema("ToolArguments", arguments);
        Schema call = components.getSchemas().get("CallBody");
        if (call != null && call.getProperties() != null && call.getProperties().containsKey("arguments")) {
            call.addProperty("arguments", ref("ToolArguments"));
        }
    }

    /** memory_save becomes MemorySave. */
    static String componentName(String tool) {
        StringBuilder b = new StringBuilder();
        for (String part : tool.split("_")) {
            b.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
        }
        return b.toString();
    }

    /** A JSON schema given as maps and lists (the tools' definitions), as the model's schema. */
    @SuppressWarnings("unchecked")
    static Schema schema(Map<String, Object> json) {
        Schema s = OASFactory.createSchema();
        json.forEach((key, value) -> {
            switch (key) {
                case "type" -> s.addType(Schema.SchemaType.valueOf(((String) value).toUpperCase(Locale.ROOT)));
                case "description" -> s.description((String) value);
                case "properties" -> {
                    Map<String, Schema> properties = new LinkedHashMap<>();
                    ((Map<String, Object>) value).forEach((n, v) -> properties.put(n, schema((Map<String, Object>) v)));
                    s.properties(properties);
                }
                case "items" -> s.items(schema((Map<String, Object>) value));
                case "required" -> s.required(List.copyOf((List<String>) value));
                case "enum" -> s.enumeration(List.copyOf((List<Object>) value));
                case "minimum" -> s.minimum(new BigDecimal(value.toString()));
                case "maximum" -> s.maximum(new BigDecimal(value.toString()));
                case "additionalProperties" -> {
                    if (value instanceof Boolean b) {
                        s.additionalPropertiesBoolean(b);
                    } else {
                        s.additionalPropertiesSchema(schema((Map<String, Object>) value));
                    }
                }
                default -> s.set(key, value);
            }
        });
        return s;
    }

    private static Content json(String component) {
        return OASFactory.createContent().addMediaType("application/json", OASFactory.createMediaType()
                .schema(ref(component)));
    }

    private static Schema ref(String component) {
        return OASFactory.createSchema().ref("#/components/schemas/" + component);
    }

    private static Schema object(Map<String, Schema> properties) {
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT).properties(new LinkedHashMap<>(properties));
    }

    private static Schema string(String description) {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING).description(description);
    }

    private static Schema integer(String description) {
        return OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).description(description);
    }

    private static Schema strings(String description) {
        return OASFactory.createSchema().addType(Schema.SchemaType.ARRAY).description(description)
                .items(OASFactory.createSchema().addType(Schema.SchemaType.STRING));
    }
}
