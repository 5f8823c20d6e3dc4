package dev.engram.access.rest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which paths are the OAuth discovery documents (answered 404 to all) and which are the API's. */
class OAuthDiscoveryPathsTest {

    @Test
    void the_documents_and_the_paths_under_them_are_asked_for() {
        assertTrue(OAuthDiscovery.asks("/.well-known/oauth-protected-resource"));
        assertTrue(OAuthDiscovery.asks("/.well-known/oauth-protected-resource/mcp"));
        assertTrue(OAuthDiscovery.asks("/.well-known/oauth-authorization-server"));
        assertTrue(OAuthDiscovery.asks("/.well-known/openid-configuration"));
        assertTrue(OAuthDiscovery.asks("/.well-known/openid-configuration/"));
    }

    @Test
    void other_paths_are_not() {
        assertFalse(OAuthDiscovery.asks("/.well-known/oauth-protected-resourcex"));
        assertFalse(OAuthDiscovery.asks("/.well-known/"));
        assertFalse(OAuthDiscovery.asks("/.well-known/security.txt"));
        assertFalse(OAuthDiscovery.asks("/v1/stores/s/scopes/user/entries/e"));
        assertFalse(OAuthDiscovery.asks("/oauth-protected-resource"));
        assertFalse(OAuthDiscovery.asks(""));
    }
}
