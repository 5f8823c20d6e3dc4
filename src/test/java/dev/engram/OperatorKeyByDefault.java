package dev.engram;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Registered for every test (junit-platform.properties turns on extension autodetection): installs
 * {@link TestAuth} in the class loader of the test class, which under {@code @QuarkusTest} is Quarkus's own and not
 * the one this extension was loaded by, so the RestAssured the test uses is the one configured.
 */
public final class OperatorKeyByDefault implements BeforeAllCallback, BeforeEachCallback {

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        install(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        install(context);
    }

    private static void install(ExtensionContext context) throws Exception {
        ClassLoader loader = context.getRequiredTestClass().getClassLoader();
        Class.forName(TestAuth.class.getName(), true, loader).getMethod("install").invoke(null);
    }
}
