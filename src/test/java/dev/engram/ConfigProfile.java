package dev.engram;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * A test profile that only sets configuration: a subclass hands its overrides to the constructor, and Quarkus
 * starts one application for each subclass, configured so.
 */
public abstract class ConfigProfile implements QuarkusTestProfile {

    private final Map<String, String> overrides;

    protected ConfigProfile(Map<String, String> overrides) {
        this.overrides = Map.copyOf(overrides);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return overrides;
    }
}
