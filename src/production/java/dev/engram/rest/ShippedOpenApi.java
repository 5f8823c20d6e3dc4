package dev.engram.rest;

import dev.engram.problems.Problems;
import dev.engram.kernel.Invalid;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.WebApplicationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code /q/openapi} in the production build: the OpenAPI document the local build makes from the code (SmallRye
 * OpenAPI), shipped as two files ({@code META-INF/engram/openapi.json} and {@code .yaml}, which
 * {@code OpenApiSnapshotTest} keeps equal to it) and served as they are. The extension would parse and write the
 * document again at every start, about a sixth of the time to ready (ADR 0007). It answers as the extension does:
 * YAML unless the path ends in {@code .json}, {@code ?format=json} is given or {@code Accept} asks for JSON. A
 * {@code format} other than {@code json} or {@code yaml} is refused, and so is any method but GET and HEAD.
 * Authentication's door (operator only, unless {@code engram.auth.open-ops-endpoints}) stands before it as before
 * every {@code /q} path.
 */
@ApplicationScoped
public class ShippedOpenApi {

    static final String JSON = "application/json;charset=UTF-8";
    static final String YAML = "application/yaml;charset=UTF-8";

    private final Map<String, Buffer> files = new ConcurrentHashMap<>();

    @ConfigProperty(name = "quarkus.http.non-application-root-path", defaultValue = "q")
    String opsRoot;

    void install(@Observes Router router) {
        String base = "/" + opsRoot.replaceAll("^/+|/+$", "") + "/openapi";
        for (String path : new String[] {base, base + ".json", base + ".yaml", base + ".yml"}) {
            router.get(path).handler(this::serve);
            router.head(path).handler(this::serve);
            router.route(path).handler(ctx -> Problems.problem(new WebApplicationException(405))
                    .header("Allow", "GET, HEAD").send(ctx));
        }
    }

    private void serve(RoutingContext ctx) {
        boolean json;
        try {
            json = json(ctx);
        } catch (Invalid i) {
            Problems.problem(i).send(ctx);
            return;
        }
        Buffer body = files.computeIfAbsent(json ? "openapi.json" : "openapi.yaml", ShippedOpenApi::read);
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, json ? JSON : YAML)
                .putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length()));
        if (ctx.request().method().name().equals("HEAD")) {
            ctx.response().end();
        } else {
            ctx.response().end(body);
        }
    }

    /** Whether the caller asked for JSON: by the path's suffix, then {@code ?format=}, then {@code Accept}. */
    private static boolean json(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (path.endsWith(".json")) {
            return true;
        }
        if (path.endsWith(".yaml") || path.endsWith(".yml")) {
            return false;
        }
        String format = ctx.request().getParam("format");
        if (format != null) {
            return switch (format.toLowerCase(Locale.ROOT)) {
                case "json" -> true;
                case "yaml" -> false;
                default -> throw new Invalid("format-unknown", "format", "format must be json or yaml, not \""
                        + (format.length() > 40 ? format.substring(0, 40) + "..." : format) + "\".");
            };
        }
        String accept = ctx.request().getHeader(HttpHeaders.ACCEPT);
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/json");
    }

    private static Buffer read(String name) {
        try (InputStream in = ShippedOpenApi.class.getResourceAsStream("/META-INF/engram/" + name)) {
            if (in == null) {
                throw new IllegalStateException("This build ships no META-INF/engram/" + name);
            }
            return Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
