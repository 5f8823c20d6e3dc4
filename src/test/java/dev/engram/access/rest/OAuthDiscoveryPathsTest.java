package dev.engram.access.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which paths are the OAuth discovery documents (answered 404 to all) and which are the API's; and the root test
 * beneath it, which the ops endpoints' door uses too.
 */
class OAuthDiscoveryPathsTest {

    @ParameterizedTest
    @CsvSource({
        "/.well-known/oauth-protected-resource, true",
        "/.well-known/oauth-protected-resource/mcp, true",
        "/.well-known/oauth-authorization-server, true",
        "/.well-known/openid-configuration, true",
        "/.well-known/openid-configuration/, true",
        "/.well-known/oauth-protected-resourcex, false",
        "/.well-known/, false",
        "/.well-known/security.txt, false",
        "/v1/stores/s/scopes/user/entries/e, false",
        "/oauth-protected-resource, false",
        "'', false"})
    void a_path_asks_for_a_discovery_document_only_at_or_under_one(String path, boolean asks) {
        assertEquals(asks, OAuthDiscovery.asks(path), path);
    }

    @ParameterizedTest
    @CsvSource({"/q, true", "/q/, true", "/q/health/ready, true", "/qx, false", "/, false", "'', false"})
    void a_path_is_at_or_under_the_root_q_only_by_whole_segments(String path, boolean under) {
        assertEquals(under, PathRoots.atOrUnder(path, "/q"), path);
    }
}
