package dev.engram.console;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real browser for the console's tests: Debian's Chromium, headless, driven by its chromedriver (both installed by
 * .ci/run from Debian's packages; no download at test time). Without them a test is skipped, so that
 * {@code ./mvnw verify} runs on a machine with only a JDK, unless {@code ENGRAM_REQUIRE_BROWSER=1} (.ci/run sets it):
 * then it fails. Screenshots go to {@code target/console-screenshots}; the accessibility check runs axe-core
 * (src/test/node/axe, installed with the other Node packages) in the page.
 */
public final class ConsoleBrowser implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("ENGRAM_CHROMIUM", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getenv().getOrDefault("ENGRAM_CHROMEDRIVER", "/usr/bin/chromedriver"));
    static final Path AXE = Path.of("src/test/node/axe/node_modules/axe-core/axe.min.js");
    static final Path SHOTS = Path.of("target/console-screenshots");

    final WebDriver driver;
    final URI base;
    private final Path profile;

    private ConsoleBrowser(WebDriver driver, URI base, Path profile) {
        this.driver = driver;
        this.base = base;
        this.profile = profile;
    }

    /** Skips the calling test, or fails it under {@code ENGRAM_REQUIRE_BROWSER=1}, when no browser is installed. */
    public static void assumeAvailable() {
        String missing = !Files.isExecutable(CHROMIUM) ? CHROMIUM + " (Debian's chromium)"
                : !Files.isExecutable(DRIVER) ? DRIVER + " (Debian's chromium-driver)" : null;
        if (missing == null) {
            return;
        }
        if ("1".equals(System.getenv("ENGRAM_REQUIRE_BROWSER"))) {
            fail(missing + " is not installed (ENGRAM_REQUIRE_BROWSER=1 asks for the browser tests)");
        }
        assumeTrue(false, missing + " is not installed: skipped; .ci/run installs it");
    }

    /** A headless Chromium of its own, with a fresh profile, for the console at {@code base}. */
    public static ConsoleBrowser open(URI base) throws IOException {
        assumeAvailable();
        Path profile = Files.createTempDirectory("engram-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-default-apps", "--window-size=1280,900", "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return new ConsoleBrowser(driver, base, profile);
    }

    /** Opens {@code path} (such as {@code /console/stores}). */
    public ConsoleBrowser go(String path) {
        driver.get(base.resolve(path).toString());
        return this;
    }

    /** Signs in with {@code key} through the sign-in page, and waits for the list of stores. */
    public ConsoleBrowser signIn(String key) {
        go("/console/sign-in");
        driver.findElement(By.id("token")).sendKeys(key);
        driver.findElement(By.cssSelector("form button[type=submit]")).click();
        try {
            waitFor(d -> d.getCurrentUrl().endsWith("/console/stores"));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("the sign-in did not reach the stores: at " + driver.getCurrentUrl() + ", "
                    + driver.getPageSource(), e);
        }
        return this;
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** The text of the page's main content. */
    public String text() {
        return find("main").getText();
    }

    /** Waits up to ten seconds for {@code condition}. */
    public void waitFor(java.util.function.Function<WebDriver, Boolean> condition) {
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(condition::apply);
    }

    /** Saves a screenshot of the window as {@code target/console-screenshots/<name>.png}. */
    public Path screenshot(String name) throws IOException {
        Files.createDirectories(SHOTS);
        Path file = SHOTS.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    /**
     * The accessibility violations of impact serious or critical that axe-core finds in the page (WCAG 2.1 A and
     * AA), as "rule: help (n nodes)"; empty when there are none.
     */
    @SuppressWarnings("unchecked")
    public List<String> seriousViolations() throws IOException {
        if (!Files.isRegularFile(AXE)) {
            if ("1".equals(System.getenv("ENGRAM_REQUIRE_NODE"))) {
                fail("no " + AXE + ": src/test/node/install.sh did not run");
            }
            assumeTrue(false, "no " + AXE + " (Node.js packages not installed): the accessibility check is skipped");
        }
        JavascriptExecutor js = (JavascriptExecutor) driver;
        js.executeScript(Files.readString(AXE, StandardCharsets.UTF_8));
        Object result = ((JavascriptExecutor) driver).executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
                + ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, "
                + "nodes: v.nodes.length, target: JSON.stringify(v.nodes[0].target)}))))"
                + ".catch(e => done([{id: 'axe-failed', impact: 'critical', help: String(e), nodes: 0}]));");
        List<String> serious = new ArrayList<>();
        for (Map<String, Object> v : (List<Map<String, Object>>) result) {
            Object impact = v.get("impact");
            if ("serious".equals(impact) || "critical".equals(impact)) {
                serious.add(v.get("id") + ": " + v.get("help") + " (" + v.get("nodes") + " nodes, first "
                        + v.get("target") + ")");
            }
        }
        return serious;
    }

    /**
     * What the page wrote to the browser's console at level SEVERE: script errors, refused loads, CSP reports; not the
     * status of a page itself (a conflict's 409 is the page meant), only of what it loads.
     */
    public List<String> severeLogs() {
        List<String> severe = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            String m = e.getMessage();
            boolean pageStatus = m.matches("^\\S+/console/[^ ]* - Failed to load resource: the server responded with "
                    + "a status of 4\\d\\d .*") && !m.contains("/console/assets/");
            if (e.getLevel().intValue() >= Level.SEVERE.intValue() && !pageStatus) {
                severe.add(m);
            }
        }
        return severe;
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
