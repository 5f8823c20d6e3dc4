package dev.engram.access.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.access.Grant;
import dev.engram.access.Role;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import java.util.ArrayList;
import java.util.List;

/**
 * A grant in JSON, as the keys API takes and shows it and as a JWT's grants claim carries it:
 * {@code {"stores": "acme-*", "role": "write", "scopes": ["user"], "read_scopes": ["rules"]}}; scopes and read_scopes
 * may be left out (every scope, none read-only).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GrantJson(String stores, String role, List<String> scopes, List<String> readScopes) {

    /** Reads a grants claim strictly, as REST reads a body: unknown members and wrong types are refused. */
    private static final ObjectMapper CLAIM = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    static GrantJson of(Grant g) {
        return new GrantJson(g.stores(), g.role().value(),
                g.scopes().isEmpty() ? null : g.scopes().stream().map(Scope::value).toList(),
                g.readScopes().isEmpty() ? null : g.readScopes().stream().map(Scope::value).toList());
    }

    static List<GrantJson> of(List<Grant> grants) {
        return grants.stream().map(GrantJson::of).toList();
    }

    /** The grant, refused with {@link Invalid} naming the member ({@code grants.0.role}) when it breaks a rule. */
    Grant toGrant(String at) {
        try {
            if (scopes != null && scopes.isEmpty()) {
                throw new Invalid("scopes-empty", "scopes", "scopes is empty, so the grant would cover no scope; "
                        + "leave it out to cover every scope, or name the scopes.");
            }
            return new Grant(stores, Role.parse(role, "role"), scopes(scopes), scopes(readScopes));
        } catch (Invalid e) {
            throw new Invalid(e.rule(), at + "." + e.field(), e.getMessage());
        }
    }

    /** The grants of a list, {@code grants.N} naming the one that breaks a rule. */
    static List<Grant> toGrants(List<GrantJson> grants) {
        List<Grant> out = new ArrayList<>();
        for (int i = 0; i < (grants == null ? 0 : grants.size()); i++) {
            GrantJson g = grants.get(i);
            if (g == null) {
                throw new Invalid("grant-missing", "grants." + i, "Grant " + i + " is null; give an object such as "
                        + "{\"stores\": \"acme-*\", \"role\": \"read\"}.");
            }
            out.add(g.toGrant("grants." + i));
        }
        return out;
    }

    /** The grants a token's claim carries (a JSON array of grant objects, as decoded), or refused with Invalid. */
    static List<Grant> fromClaim(Object claim) {
        if (!(claim instanceof List<?>)) {
            throw new Invalid("grants-claim", "grants", "The token's grants claim is not an array of grants.");
        }
        try {
            return toGrants(java.util.Arrays.asList(CLAIM.convertValue(claim, GrantJson[].class)));
        } catch (IllegalArgumentException e) {
            throw new Invalid("grants-claim", "grants", "The token's grants claim holds something other than "
                    + "grant objects.");
        }
    }

    private static List<Scope> scopes(List<String> values) {
        return values == null ? List.of() : values.stream().map(v -> new Scope(v == null ? "" : v)).toList();
    }
}
