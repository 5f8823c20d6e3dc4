package dev.engram;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The records logged at ERROR (SEVERE) or above while each test runs, by any logger of the JVM: register it with
 * {@code @RegisterExtension final ErrorLog errors = new ErrorLog();} and read {@link #records()}.
 */
public final class ErrorLog extends Handler implements BeforeEachCallback, AfterEachCallback {

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    /** What was logged at ERROR or above since the test began, in order. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        records.clear();
        Logger.getLogger("").addHandler(this);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Logger.getLogger("").removeHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
            records.add(record);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
