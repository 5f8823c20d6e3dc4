package dev.engram.ops;

import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;

/**
 * With no datasource URL at run time (a production build started without {@code QUARKUS_DATASOURCE_JDBC_URL}), the
 * persistence unit is inactive unless configured otherwise: Hibernate ORM then does not fail the start before
 * {@link DatabaseRequired} says what to set. A local build always has a URL (its embedded database's), so this never
 * applies to it.
 */
public final class WithoutADatabase implements ConfigSourceInterceptor {

    private static final String UNIT = "quarkus.hibernate-orm.";
    private static final String URL = "quarkus.datasource.jdbc.url";

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (value != null || !name.startsWith(UNIT) || !name.endsWith(".active")
                || ExecutionMode.current() == ExecutionMode.UNSET) {
            return value;
        }
        ConfigValue url = context.proceed(URL);
        if (url != null && url.getValue() != null && !url.getValue().isBlank()) {
            return null;
        }
        return ConfigValue.builder().withName(name).withValue("false").withConfigSourceName("engram-no-database")
                .build();
    }
}
