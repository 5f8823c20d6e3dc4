package dev.engram.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.ConfigMappings;
import java.util.Set;
import org.junit.jupiter.api.Test;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which hosts Engram may listen on without credentials: loopback only. */
class ExposureCheckTest {

    @ParameterizedTest(name = "{0}, credentials {1}: refused {2}")
    @CsvSource({
        "127.0.0.1, false, false",
        "127.0.0.2, false, false",
        "localhost, false, false",
        "::1, false, false",
        "[::1], false, false",
        "0.0.0.0, false, true",
        "::, false, true",
        "192.168.1.10, false, true",
        "10.0.0.7, false, true",
        "no-such-host.invalid, false, true",
        "0.0.0.0, true, false",
        "192.168.1.10, true, false"
    })
    void aHostBeyondLoopbackNeedsCredentials(String host, boolean credentials, boolean refused) {
        assertEquals(refused, ExposureCheck.refusal(host, credentials).isPresent());
    }

    @Test
    void theCredentialsItLooksForAreSettingsEngramReads() {
        // it once looked for mp.jwt.verify.*, which Engram never reads: a JWT-only deployment could not start
        Set<String> read = ConfigMappings.getProperties(new ConfigMappings.ConfigClass(EngramConfig.class, "engram"))
                .keySet();
        for (String name : ExposureCheck.CREDENTIALS) {
            assertTrue(read.contains(name), name + " is not a setting of Engram's");
        }
    }
}
