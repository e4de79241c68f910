package dev.omcp.app.access;

import dev.omcp.testkit.files.ScratchDirectory;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's {@code chromium}, headless, driven by Selenium through Debian's {@code chromedriver}. Both paths are given,
 * so Selenium Manager never looks for (or downloads) a driver or a browser, and each start gets a fresh profile
 * directory, removed at {@link #close()}. When either binary is missing the start fails with the install command:
 * tests tagged {@code backend} fail, not skip, when their backend is absent.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    private static final List<Path> BROWSERS = List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/lib/chromium/chromium"));
    private static final String INSTALL = "install them with: apt-get install -y chromium chromium-driver";
    /** Long enough for a page that waits on a tool call; a failing wait names what it waited for. */
    private static final Duration WAIT = Duration.ofSeconds(15);

    final ChromeDriver driver;
    private final WebDriverWait wait;
    private final ScratchDirectory profile;

    private HeadlessChromium(ChromeDriver driver, ScratchDirectory profile) {
        this.driver = driver;
        this.profile = profile;
        this.wait = new WebDriverWait(driver, WAIT);
    }

    static HeadlessChromium start() {
        if (!Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("chromedriver is not installed at " + DRIVER + "; " + INSTALL);
        }
        Path browser = BROWSERS.stream().filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new IllegalStateException("chromium is not installed at " + BROWSERS + "; " + INSTALL));
        ScratchDirectory profile = ScratchDirectory.create("omcp-chromium-profile");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .withLogOutput(OutputStream.nullOutputStream())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        // TOOLCHAIN.md: no sandbox (containers), and nothing that reaches the network on its own
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                "--window-size=1280,900", "--user-data-dir=" + profile.path());
        // the console, so a test can tell a script error or a blocked script (a CSP refusal) from a quiet page
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        try {
            return new HeadlessChromium(new ChromeDriver(service, options), profile);
        } catch (RuntimeException e) {
            service.stop();
            profile.close();
            throw new IllegalStateException("chromium did not start under chromedriver: " + e.getMessage(), e);
        }
    }

    /** Opens {@code url} in the one tab. */
    void open(String url) {
        driver.get(url);
    }

    /** The element with {@code id} once it is visible. */
    WebElement visible(String id) {
        return wait.withMessage("element #" + id + " to be visible").until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
    }

    /** Waits until the element with {@code id} holds {@code text} (also when the page redraws it meanwhile). */
    void waitForText(String id, String text) {
        wait.withMessage("element #" + id + " to contain '" + text + "'")
                .until(ExpectedConditions.textToBePresentInElementLocated(By.id(id), text));
    }

    /** Waits until {@code condition} holds; {@code what} names it when it never does. */
    void waitUntil(String what, java.util.function.BooleanSupplier condition) {
        wait.withMessage(what).until(driver -> condition.getAsBoolean());
    }

    /** Whether an element with {@code id} is on the page now. */
    boolean present(String id) {
        return !driver.findElements(By.id(id)).isEmpty();
    }

    /** Types {@code text} into the (emptied) input {@code id}. */
    void type(String id, String text) {
        WebElement input = visible(id);
        input.clear();
        input.sendKeys(text);
    }

    /**
     * What went wrong on the page since the last call: the console's errors (an uncaught exception, a module that did
     * not load, a script the content security policy refused) but for answers the page asked for and handles itself
     * (a 401 before login, a refusal it shows), and every violation of a policy, also of one only reported, which
     * Chromium logs as information.
     */
    List<String> scriptErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getMessage().contains("Content Security Policy")
                        || (entry.getLevel().intValue() >= Level.SEVERE.intValue()
                                && !entry.getMessage().contains("Failed to load resource: the server responded with a status of")))
                .map(LogEntry::getMessage)
                .toList();
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            profile.close();
        }
    }
}
