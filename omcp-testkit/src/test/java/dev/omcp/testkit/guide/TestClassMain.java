package dev.omcp.testkit.guide;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one JUnit test class, named by the argument, in this JVM and exits with 0 only when its tests
 * ran and all passed: how {@code ConnectorGuideIT} runs the page's plugin test in the author's
 * project directory, where its relative paths point.
 */
public final class TestClassMain {
    private TestClassMain() {}

    public static void main(String[] args) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(args[0])).build(), listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printFailuresTo(out, 40);
        summary.printTo(out);
        boolean allPassed = summary.getTestsFoundCount() > 0 && summary.getTestsSucceededCount() == summary.getTestsFoundCount()
                && summary.getTotalFailureCount() == 0;
        System.exit(allPassed ? 0 : 1);
    }
}
