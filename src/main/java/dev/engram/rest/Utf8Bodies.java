package dev.engram.rest;

import dev.engram.problems.Problem;
import dev.engram.problems.RefusedBody;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Refuses a REST body that is not strictly UTF-8 ({@link StrictUtf8}) before it is parsed: the JSON parser would
 * also read UTF-16, UTF-32 and overlong forms, so {@code C0 AF} would become {@code /}. The body is whole by now
 * ({@link RequestBodies} read it, within the size limit, before a worker took the request). A body a resource takes as
 * {@code byte[]} is bytes, not text, and passes untouched.
 */
@Provider
@ApplicationScoped
public class Utf8Bodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (context.getType() == byte[].class) {
            return context.proceed(); // bytes, not text: a store's archive (POST .../import), read by its own rules
        }
        byte[] body = context.getInputStream().readAllBytes();
        int bad = StrictUtf8.firstInvalid(body);
        if (bad >= 0) {
            throw new RefusedBody(Problem.of("malformed", 400, "Malformed body", "The body is not UTF-8: "
                    + (body[bad] == 0 ? "a NUL byte" : "an invalid or overlong sequence") + " at byte " + bad
                    + ". Send JSON encoded as UTF-8, not UTF-16 or UTF-32.").with("rule", "body-encoding")
                    .with("field", ""));
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }
}
