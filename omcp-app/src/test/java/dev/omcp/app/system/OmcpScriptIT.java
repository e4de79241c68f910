package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./omcp} script at the repository root (issue 2, item 3): it builds the launcher jar
 * when the jar is missing or older than the sources, and otherwise runs it straight away. The
 * script runs on a copy of itself in a temporary "clone" whose {@code mvn} and JDK are stand-ins
 * that record how they were called, so the test builds nothing and starts no gateway. File times
 * are set explicitly; nothing waits for the clock.
 */
class OmcpScriptIT {
    private static final Path SCRIPT = Path.of("..", "omcp").toAbsolutePath().normalize();
    private static final Instant BUILT = Instant.parse("2026-01-01T10:00:00Z");

    @TempDir
    Path temp;
    private Path clone;
    private Path tools;
    private Path jar;
    private Path builds;
    private Path runs;
    private Path mavenOpts;

    @BeforeEach
    void aFreshClone() throws IOException {
        clone = Files.createDirectories(temp.resolve("clone"));
        Files.copy(SCRIPT, clone.resolve("omcp"));
        executable(clone.resolve("omcp"));
        Files.writeString(clone.resolve("pom.xml"), "<project/>");
        Files.createDirectories(clone.resolve("omcp-core/src/main/java/dev/omcp/core"));
        Files.writeString(clone.resolve("omcp-core/src/main/java/dev/omcp/core/Thing.java"), "class Thing {}");
        Files.createDirectories(clone.resolve("omcp-core/src/test/java"));
        jar = clone.resolve("omcp-app/target/omcp.jar");

        tools = Files.createDirectories(temp.resolve("tools"));
        builds = tools.resolve("builds.log");
        runs = tools.resolve("runs.log");
        mavenOpts = tools.resolve("maven-opts.log");
        Path bin = Files.createDirectories(tools.resolve("bin"));
        // mvn: logs the call and leaves a jar, as `mvn -pl omcp-app -am package` would
        Files.writeString(bin.resolve("mvn"), """
                #!/bin/sh
                echo "mvn $*" >> '%s'
                echo "$MAVEN_OPTS" >> '%s'
                [ -f "$PWD/fail-the-build" ] && { echo 'BUILD FAILURE: Thing.java does not compile'; exit 1; }
                [ -f "$PWD/slow-build" ] && { echo $$ > "$PWD/build.pid"; exec sleep 60; }
                mkdir -p "$PWD/omcp-app/target"
                # stopped while writing the jar, as a build killed half-way through the shade step
                if [ -f "$PWD/stop-while-writing" ]; then
                  echo 'half a j' > "$PWD/omcp-app/target/omcp.jar"
                  echo $$ > "$PWD/build.pid"
                  exec sleep 60
                fi
                # a build that goes on until the test lets it finish (or 30 s pass: a failed test leaves no build behind)
                if [ -f "$PWD/held-build" ]; then
                  echo $$ > "$PWD/build.pid"
                  n=0
                  while [ ! -f "$PWD/release-build" ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
                fi
                echo jar > "$PWD/omcp-app/target/omcp.jar"
                """.formatted(builds, mavenOpts));
        executable(bin.resolve("mvn"));
        // a JDK 21 whose java logs its arguments instead of starting anything
        fakeJdk("21.0.5", "");
    }

    @Test
    void aFreshClone_buildsTheJarOnce_thenRunsIt() throws Exception {
        Run first = omcp("serve");
        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.output()).contains("building the launcher jar");
        assertThat(lines(builds)).singleElement().satisfies(call -> assertThat(call).contains("-pl omcp-app -am package"));
        assertThat(lines(runs)).singleElement().satisfies(call -> assertThat(call).endsWith("-jar " + jar + " serve"));

        Run second = omcp("serve");
        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(second.output()).doesNotContain("building");
        assertThat(lines(builds)).as("an up-to-date jar is not rebuilt").hasSize(1);
        assertThat(lines(runs)).hasSize(2);
    }

    @Test
    void aJavaRuntimeWithoutACompiler_isNamed_beforeMavenFailsOnIt() throws Exception {
        // a JRE 21 runs the jar but cannot build it: Maven only said "No compiler is provided in this environment"
        Files.delete(tools.resolve("jdk/bin/javac"));
        Run run = omcp("serve");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.output()).contains("has no compiler (bin/javac)").contains("install a JDK 21+");
        assertThat(lines(builds)).isEmpty();
    }

    @Test
    void onJdk21_theBuildsJvmGetsNoOptionItDoesNotKnow() throws Exception {
        // --sun-misc-unsafe-memory-access exists from JDK 23 on: a JDK 21 or 22 refuses to start with it
        // ("Unrecognized option"), so Maven, which runs on the chosen JDK, could not build the jar at all
        Run run = omcp(Map.of("MAVEN_OPTS", "-Xmx1g"), "serve");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(lines(mavenOpts)).singleElement().satisfies(opts -> assertThat(opts)
                .contains("-Xmx1g").doesNotContain("--sun-misc-unsafe-memory-access"));
    }

    @Test
    void onJdk25_theBuildsJvmAllowsUnsafeMemoryAccess_soMavensGuiceDoesNotWarn() throws Exception {
        jdk25();
        Run run = omcp(Map.of("OMCP_AOT", "off"), "serve");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(lines(mavenOpts)).singleElement().satisfies(opts -> assertThat(opts).contains("--sun-misc-unsafe-memory-access=allow"));
    }

    @Test
    void runThroughASymlinkFromAnotherDirectory_buildsAndRunsTheCheckoutItLinksTo() throws Exception {
        Path elsewhere = Files.createDirectories(temp.resolve("my bin"));
        Path link = Files.createSymbolicLink(elsewhere.resolve("omcp"), Path.of("..", "clone", "omcp"));
        Run run = omcp(elsewhere, Map.of(), link.toString(), "serve");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(lines(builds)).singleElement();
        assertThat(jar).as("built in the checkout, not beside the link").exists();
        assertThat(lines(runs)).singleElement().satisfies(call -> assertThat(call).endsWith("-jar " + jar + " serve"));
    }

    @Test
    void aSigtermDuringTheBuild_stopsMavenToo_andExits143() throws Exception {
        Files.writeString(clone.resolve("slow-build"), "");
        // output to a file: Process.destroy() closes the pipes, and the script's last words would then end it with SIGPIPE
        Path output = tools.resolve("script-output.log");
        Process script = start(clone, Map.of(), ProcessBuilder.Redirect.to(output.toFile()), clone.resolve("omcp").toString(), "serve");
        Path buildPid = clone.resolve("build.pid");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(buildPid) || Files.readString(buildPid).isBlank()) {
            assertThat(System.nanoTime()).as("the build started").isLessThan(deadline);
            Thread.sleep(50);
        }
        ProcessHandle maven = ProcessHandle.of(Long.parseLong(Files.readString(buildPid).strip())).orElseThrow();
        try {
            script.destroy();
            assertThat(script.waitFor(20, TimeUnit.SECONDS)).as("./omcp stopped").isTrue();
            assertThat(script.exitValue()).as("128 + SIGTERM").isEqualTo(143);
            assertThat(Files.readString(output)).contains("omcp: stopped during the build");
            assertThat(maven.onExit().get(10, TimeUnit.SECONDS).isAlive()).as("no orphan build left running").isFalse();
            assertThat(lines(runs)).isEmpty();
        } finally {
            maven.destroyForcibly();
        }
    }

    @Test
    void twoRunsAtOnceOnAFreshClone_buildOnce_andTheSecondWaitsThenRunsTheFreshJar() throws Exception {
        twoRunsAtOnce(Map.of(), Map.of());
    }

    @Test
    void withoutFlock_twoRunsAtOnce_stillBuildOnce() throws Exception {
        // macOS has no flock: the script then locks with a file of its own, in bash alone
        twoRunsAtOnce(Map.of("PATH", pathWithout("flock")), Map.of("PATH", pathWithout("flock")));
    }

    @Test
    void aRunWithFlockAndOneWithout_inOneCheckout_stillBuildOnce() throws Exception {
        // two shells with different PATHs: each must see the other's lock
        twoRunsAtOnce(Map.of(), Map.of("PATH", pathWithout("flock")));
        // and the other way round
        for (Path done : List.of(jar, clone.resolve("release-build"), clone.resolve("build.pid"), builds, runs)) {
            Files.delete(done);
        }
        twoRunsAtOnce(Map.of("PATH", pathWithout("flock")), Map.of());
    }

    private void twoRunsAtOnce(Map<String, String> env, Map<String, String> secondEnv) throws Exception {
        Files.writeString(clone.resolve("held-build"), "");
        Path firstOutput = tools.resolve("first-output.log");
        Path secondOutput = tools.resolve("second-output.log");
        Process first = start(clone, env, ProcessBuilder.Redirect.to(firstOutput.toFile()), clone.resolve("omcp").toString(), "serve");
        Process second = null;
        try {
            awaitFile(clone.resolve("build.pid"), "the first run's build started");
            second = start(clone, secondEnv, ProcessBuilder.Redirect.to(secondOutput.toFile()), clone.resolve("omcp").toString(), "serve");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!Files.readString(secondOutput).contains("waiting")) {
                assertThat(System.nanoTime()).as("the second run says it waits: " + Files.readString(secondOutput)).isLessThan(deadline);
                Thread.sleep(50);
            }
            Files.writeString(clone.resolve("release-build"), "");
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("the first ./omcp finished").isTrue();
            assertThat(second.waitFor(30, TimeUnit.SECONDS)).as("the second ./omcp finished").isTrue();
            assertThat(first.exitValue()).as(Files.readString(firstOutput)).isZero();
            assertThat(second.exitValue()).as(Files.readString(secondOutput)).isZero();
            assertThat(Files.readString(secondOutput))
                    .contains("omcp: another ./omcp is building the launcher jar or its start-up cache in " + clone + "; waiting for it")
                    .doesNotContain("building the launcher jar (");
            assertThat(lines(builds)).as("one build, not two in the same target/").hasSize(1);
            assertThat(lines(runs)).hasSize(2).allSatisfy(call -> assertThat(call).endsWith("-jar " + jar + " serve"));
        } finally {
            Files.writeString(clone.resolve("release-build"), "");
            first.destroyForcibly();
            if (second != null) {
                second.destroyForcibly();
            }
        }
    }

    @Test
    void withoutFlock_aLockLeftByAKilledRun_isTakenOverByOneOfTwoWaiters_andTheyBuildOnce() throws Exception {
        String path = pathWithout("flock");
        // an rm of the lock that takes its time, as on a loaded machine: both waiters then find the owner
        // dead before either has replaced the lock, and both replacing it let both build
        Path rm = Path.of(path, "rm");
        Path realRm = rm.toRealPath();
        Files.delete(rm);
        Files.writeString(rm, "#!/bin/sh\ncase \"$*\" in */.omcp/build*) sleep 1 ;; esac\nexec '" + realRm + "' \"$@\"\n");
        executable(rm);
        Map<String, String> env = Map.of("PATH", path);
        Files.writeString(clone.resolve("held-build"), "");
        String omcp = clone.resolve("omcp").toString();
        Process killed = start(clone, env, ProcessBuilder.Redirect.DISCARD, omcp, "serve");
        ProcessHandle maven = ProcessHandle.of(Long.parseLong(awaitFile(clone.resolve("build.pid"), "the build started"))).orElseThrow();
        // SIGKILL: no trap runs, and the lock stays behind naming a process that is gone
        killed.destroyForcibly();
        maven.destroyForcibly();
        assertThat(killed.waitFor(20, TimeUnit.SECONDS)).isTrue();
        maven.onExit().get(10, TimeUnit.SECONDS);
        Files.delete(clone.resolve("build.pid"));

        Path firstOutput = tools.resolve("first-output.log");
        Path secondOutput = tools.resolve("second-output.log");
        Process first = start(clone, env, ProcessBuilder.Redirect.to(firstOutput.toFile()), omcp, "serve");
        Process second = start(clone, env, ProcessBuilder.Redirect.to(secondOutput.toFile()), omcp, "serve");
        try {
            awaitFile(clone.resolve("build.pid"), "a waiter's build started");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!(Files.readString(firstOutput) + Files.readString(secondOutput)).contains("waiting for it")
                    && lines(builds).size() < 3) {
                assertThat(System.nanoTime()).as("one waiter waits for the other").isLessThan(deadline);
                Thread.sleep(50);
            }
            Files.writeString(clone.resolve("release-build"), "");
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("the first waiter finished").isTrue();
            assertThat(second.waitFor(30, TimeUnit.SECONDS)).as("the second waiter finished").isTrue();
            assertThat(first.exitValue()).as(Files.readString(firstOutput)).isZero();
            assertThat(second.exitValue()).as(Files.readString(secondOutput)).isZero();
            assertThat(lines(builds)).as("the killed run's build and one more, not two in the same target/").hasSize(2);
            assertThat(lines(runs)).hasSize(2);
        } finally {
            Files.writeString(clone.resolve("release-build"), "");
            first.destroyForcibly();
            second.destroyForcibly();
        }
    }

    @Test
    void aLockNamingAProcessIdNowUsedByAnotherProcess_isTakenOver_notWaitedForForEver() throws Exception {
        // the id of a live process (this JVM), but the lock was taken by a run started at another time
        long pid = ProcessHandle.current().pid();
        Path state = Files.createDirectories(clone.resolve(".omcp"));
        for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("PATH", pathWithout("flock")))) {
            Files.deleteIfExists(state.resolve("build.owner"));
            Files.createSymbolicLink(state.resolve("build.owner"), Path.of(pid + "-1234-MonJan1000000001970"));
            Files.writeString(state.resolve("build.pid"), pid + "\n"); // the lock of the script before the link
            Files.deleteIfExists(jar);
            Process run = start(clone, env, ProcessBuilder.Redirect.DISCARD, clone.resolve("omcp").toString(), "serve");
            try {
                assertThat(run.waitFor(20, TimeUnit.SECONDS)).as("./omcp finished, with " + env).isTrue();
                assertThat(run.exitValue()).isZero();
            } finally {
                run.destroyForcibly();
            }
        }
        assertThat(lines(builds)).hasSize(2);
    }

    @Test
    void aBuildStoppedWhileWritingTheJar_isRebuiltByTheNextRun_notTrusted() throws Exception {
        Files.writeString(clone.resolve("stop-while-writing"), "");
        Path output = tools.resolve("script-output.log");
        Process script = start(clone, Map.of(), ProcessBuilder.Redirect.to(output.toFile()), clone.resolve("omcp").toString(), "serve");
        ProcessHandle maven = ProcessHandle.of(Long.parseLong(awaitFile(clone.resolve("build.pid"), "the build started"))).orElseThrow();
        try {
            script.destroy();
            assertThat(script.waitFor(20, TimeUnit.SECONDS)).as("./omcp stopped").isTrue();
            assertThat(script.exitValue()).isEqualTo(143);
        } finally {
            maven.destroyForcibly();
        }
        assertThat(jar).as("the half-written jar, newer than every source").hasContent("half a j");

        Files.delete(clone.resolve("stop-while-writing"));
        Run next = omcp("serve");
        assertThat(next.exitCode()).as(next.output()).isZero();
        assertThat(next.output()).contains("building the launcher jar");
        assertThat(lines(builds)).hasSize(2);
        assertThat(jar).hasContent("jar");
    }

    @Test
    void aJarNoCompletedBuildVouchesFor_isRebuilt() throws Exception {
        // the script was killed outright (SIGKILL, out of memory, power loss) while Maven wrote the jar: no trap ran
        builtJar();
        Files.delete(builtMark());
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(lines(builds)).as("a jar without the mark").hasSize(1);

        // Maven run by hand (perhaps stopped half-way) wrote the jar after the last completed build
        builtJar();
        Files.setLastModifiedTime(jar, FileTime.from(BUILT.plusSeconds(1)));
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(lines(builds)).as("a jar newer than the mark").hasSize(2);

        builtJar();
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(lines(builds)).as("a jar the mark vouches for").hasSize(2);
    }

    @Test
    void aSourceOrPomNewerThanTheJar_rebuildsIt() throws Exception {
        builtJar();
        newerThanTheJar(clone.resolve("omcp-core/src/main/java/dev/omcp/core/Thing.java"));
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(lines(builds)).as("a changed main source").hasSize(1);

        builtJar();
        newerThanTheJar(clone.resolve("pom.xml"));
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(lines(builds)).as("a changed pom.xml").hasSize(2);
    }

    @Test
    void aDeletedSourceFile_rebuildsIt() throws Exception {
        builtJar();
        Files.delete(clone.resolve("omcp-core/src/main/java/dev/omcp/core/Thing.java"));
        newerThanTheJar(clone.resolve("omcp-core/src/main/java/dev/omcp/core"));
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(lines(builds)).hasSize(1);
    }

    @Test
    void testsAndBuildOutputNewerThanTheJar_doNotRebuildIt() throws Exception {
        builtJar();
        Path testSource = Files.writeString(clone.resolve("omcp-core/src/test/java/ThingTest.java"), "class ThingTest {}");
        newerThanTheJar(testSource);
        Path output = Files.createDirectories(clone.resolve("omcp-core/target/src/main/java"));
        newerThanTheJar(Files.writeString(output.resolve("Generated.java"), "class Generated {}"));
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(lines(builds)).isEmpty();
        assertThat(lines(runs)).hasSize(1);
    }

    @Test
    void aFailingBuild_showsMavensOutput_exitsOne_andStartsNothing() throws Exception {
        Files.writeString(clone.resolve("fail-the-build"), "");
        Run run = omcp("serve");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.output()).contains("BUILD FAILURE: Thing.java does not compile").contains("the build failed");
        assertThat(lines(runs)).isEmpty();
    }

    @Test
    void onJdk25_trainsAClassOnlyStartUpCacheOnce_removesOlderCaches_andStartsWithIt() throws Exception {
        jdk25();
        builtJar();
        Path state = Files.createDirectories(clone.resolve(".omcp"));
        Path older = Files.writeString(state.resolve("omcp-25.aot"), "a cache with the training run's method profiles");
        // left by a killed training run of a script that wrote the cache under its final name
        Path olderClassList = Files.writeString(state.resolve("omcp-25-classes.aot.config"), "the recorded classes");
        Path cache = state.resolve("omcp-25-classes.aot");

        Run first = omcp("serve");
        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.output()).contains("training the start-up cache");
        assertThat(lines(runs)).hasSize(2);
        assertThat(lines(runs).get(0))
                .as("the training run records classes, not the method profiles that slowed the running gateway")
                .contains("-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining -XX:AOTCacheOutput=" + cache + ".part")
                .endsWith("-jar " + jar + " aot-train");
        assertThat(lines(runs).get(1)).contains("-XX:AOTCache=" + cache).endsWith("-jar " + jar + " serve");
        assertThat(older).doesNotExist();
        assertThat(olderClassList).doesNotExist();

        Run second = omcp("serve");
        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(second.output()).doesNotContain("training");
        assertThat(lines(runs)).hasSize(3);
        assertThat(lines(runs).get(2)).contains("-XX:AOTCache=" + cache).doesNotContain("AOTCacheOutput");
    }

    @Test
    void onJdk25_aRunKilledWhileTheCacheIsWritten_leavesNoCacheTheNextRunTrusts() throws Exception {
        jdk25();
        builtJar();
        Files.writeString(clone.resolve("kill-during-training"), "");
        Run killed = omcp("serve");
        assertThat(killed.exitCode()).as(killed.output()).isNotZero();
        Files.delete(clone.resolve("kill-during-training"));

        Run next = omcp("serve");
        assertThat(next.exitCode()).as(next.output()).isZero();
        assertThat(next.output()).as("the half-written cache is not taken for a trained one").contains("training the start-up cache");
        assertThat(Files.readString(clone.resolve(".omcp/omcp-25-classes.aot"))).isEqualTo("cache\n");
        assertThat(clone.resolve(".omcp/omcp-25-classes.aot.part")).doesNotExist();
        assertThat(clone.resolve(".omcp/omcp-25-classes.aot.part.config"))
                .as("the JVM's temporary class list (some 46 MB) left by the killed run").doesNotExist();
    }

    @Test
    void onJdk25_aFailedTraining_saysSo_andStartsWithoutACache() throws Exception {
        jdk25();
        builtJar();
        Files.writeString(clone.resolve("fail-the-training"), "");
        Run run = omcp("serve");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("start-up cache training failed; running without it");
        assertThat(lines(runs)).last().satisfies(call -> assertThat(call).doesNotContain("AOTCache").endsWith("-jar " + jar + " serve"));
        assertThat(clone.resolve(".omcp/omcp-25-classes.aot")).doesNotExist();
        assertThat(clone.resolve(".omcp/omcp-25-classes.aot.part.config"))
                .as("the JVM keeps its temporary class list when the cache is not assembled").doesNotExist();
    }

    @Test
    void theDemo_whoseSimulatedBackendsShareItsJvm_getsALargerHeap_whichOMCP_JAVA_OPTSStillOverrides() throws Exception {
        builtJar();
        assertThat(omcp("serve").exitCode()).isZero();
        assertThat(omcp("demo").exitCode()).isZero();
        assertThat(omcp(Map.of("OMCP_JAVA_OPTS", "-Xmx300m"), "demo").exitCode()).isZero();
        List<String> calls = lines(runs);
        assertThat(calls.get(0)).contains("-Xmx256m").doesNotContain("-Xmx512m");
        assertThat(calls.get(1)).contains("-Xmx256m -XX:MaxMetaspaceSize").contains("-Xmx512m").endsWith("-jar " + jar + " demo");
        assertThat(calls.get(2).indexOf("-Xmx300m")).as("a later -Xmx wins").isGreaterThan(calls.get(2).indexOf("-Xmx512m"));
    }

    @Test
    void onJdk25_OMCP_AOT_off_startsWithoutTrainingOrACache() throws Exception {
        jdk25();
        builtJar();
        Run run = omcp(Map.of("OMCP_AOT", "off"), "serve");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(lines(runs)).singleElement().satisfies(call -> assertThat(call).doesNotContain("AOT"));
    }

    @Test
    void onJdk25_OMCP_AOT_isReadLikeTheGatewaysSwitches_soFalseOrOFFAlsoTurnsTheCacheOff() throws Exception {
        jdk25();
        builtJar();
        for (String off : List.of("OFF", "false", "0", "No", " off ")) {
            Run run = omcp(Map.of("OMCP_AOT", off), "serve");
            assertThat(run.exitCode()).as(off + ": " + run.output()).isZero();
            assertThat(run.output()).as(off).doesNotContain("training");
        }
        assertThat(lines(runs)).hasSize(5).allSatisfy(call -> assertThat(call).doesNotContain("AOT"));

        Run on = omcp(Map.of("OMCP_AOT", "TRUE"), "serve");
        assertThat(on.exitCode()).as(on.output()).isZero();
        assertThat(on.output()).contains("training the start-up cache");
    }

    @Test
    void anOMCP_AOTThatIsNeitherOnNorOff_isNamed_exitsOne_andBuildsOrStartsNothing() throws Exception {
        Run run = omcp(Map.of("OMCP_AOT", "disabled"), "serve");
        assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("OMCP_AOT must be on or off").contains("got 'disabled'");
        assertThat(lines(builds)).isEmpty();
        assertThat(lines(runs)).isEmpty();
    }

    @Test
    void withoutMaven_aMissingJar_isExplained_exitsOne_andStartsNothing() throws Exception {
        Path noMaven = Files.createDirectories(tools.resolve("no-maven-bin"));
        for (String command : List.of("bash", "sed", "find", "dirname", "readlink", "cut", "rm", "mkdir")) {
            Path real = Path.of("/usr/bin", command);
            Files.createSymbolicLink(noMaven.resolve(command), Files.exists(real) ? real : Path.of("/bin", command));
        }
        Run run = omcp(Map.of("PATH", noMaven.toString()), "serve");
        assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("Maven (mvn) is not on PATH").contains("install Maven 3.8+").doesNotContain("command not found");
        assertThat(lines(runs)).isEmpty();
    }

    @Test
    void aJavaHomeOlderThan21_isNamed_notSilentlyReplaced() throws Exception {
        builtJar();
        fakeJdk("17.0.2", "");
        Run run = omcp("serve");
        // what happens next depends on the JDKs of this machine (another 21+ is used, or none is
        // found and the script exits 1); either way the operator learns why JAVA_HOME was not used
        assertThat(run.output()).contains("JAVA_HOME=" + tools.resolve("jdk") + " is JDK 17, older than 21");

        fakeJdk("1.8.0_392", ""); // JDK 8 and older spell their version 1.x
        assertThat(omcp("serve").output()).contains("JAVA_HOME=" + tools.resolve("jdk") + " is JDK 8, older than 21");
        assertThat(lines(runs)).as("the JDK 17 never runs the jar").isEmpty();
        if (run.exitCode() == 1 && run.output().contains("found none")) {
            assertThat(run.output()).contains("needs a JDK 21 or newer and found none (JAVA_HOME=");
        } else {
            assertThat(run.output()).contains("; using ");
        }
    }

    @Test
    void OMCP_JAVA_OPTS_isSplitAtBlanks_butNotGlobExpanded() throws Exception {
        builtJar();
        Files.writeString(clone.resolve("-Dpick=glob-hit"), "a file a glob would match");
        assertThat(omcp(Map.of("OMCP_JAVA_OPTS", "-Xmx300m  -Dpick=*"), "serve").exitCode()).isZero();
        assertThat(lines(runs)).singleElement().satisfies(call -> assertThat(call)
                .contains("-Xmx300m -Dpick=* -jar").doesNotContain("glob-hit"));
    }

    @Test
    void onJdk25_aStateDirectoryItCannotCreate_startsWithoutACache() throws Exception {
        jdk25();
        builtJar();
        Files.writeString(clone.resolve(".omcp"), "a file where the cache directory would go");
        Run run = omcp("serve");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("cannot create " + clone.resolve(".omcp") + " for the start-up cache; running without it");
        assertThat(lines(runs)).singleElement().satisfies(call -> assertThat(call).doesNotContain("AOT").endsWith("-jar " + jar + " serve"));
    }

    /**
     * Makes the fake JDK a 25, whose java writes the files a real training run writes: JDK 25 records
     * the classes in a temporary {@code <AOTCacheOutput>.config} ("Temporary AOTConfiguration
     * recorded: ..."), assembles the cache from it in a child JVM, then removes it; a run that fails or
     * is killed before that leaves it behind.
     */
    private void jdk25() throws IOException {
        fakeJdk("25.0.1", """
                for arg in "$@"; do
                  case "$arg" in
                    -XX:AOTCacheOutput=*)
                      output="${arg#-XX:AOTCacheOutput=}"
                      echo "the recorded classes" > "$output.config"
                      [ -f "$PWD/fail-the-training" ] && exit 1
                      if [ -f "$PWD/kill-during-training" ]; then
                        echo "half a ca" > "$output"; kill -KILL "$PPID"; exit 137
                      fi
                      echo cache > "$output"
                      rm -f "$output.config" ;;
                  esac
                done
                exit 0
                """);
    }

    /** A JDK of {@code version} whose java logs its arguments to {@link #runs}, then runs {@code more}. */
    private void fakeJdk(String version, String more) throws IOException {
        Path java = Files.createDirectories(tools.resolve("jdk/bin")).resolve("java");
        Files.writeString(tools.resolve("jdk/release"), "JAVA_VERSION=\"" + version + "\"\n");
        Files.writeString(java, "#!/bin/sh\necho \"java $*\" >> '" + runs + "'\n" + more);
        executable(java);
        Files.writeString(tools.resolve("jdk/bin/javac"), "#!/bin/sh\nexit 0\n");
        executable(tools.resolve("jdk/bin/javac"));
    }

    private record Run(int exitCode, String output) {}

    private Run omcp(String... args) throws Exception {
        return omcp(Map.of(), args);
    }

    private Run omcp(Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(clone.resolve("omcp").toString()));
        command.addAll(List.of(args));
        return omcp(clone, env, command.toArray(String[]::new));
    }

    /** Runs {@code command} (the script first) in {@code directory} and waits for it. */
    private Run omcp(Path directory, Map<String, String> env, String... command) throws Exception {
        Process process = start(directory, env, ProcessBuilder.Redirect.PIPE, command);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("./omcp finished").isTrue();
        return new Run(process.exitValue(), output);
    }

    private Process start(Path directory, Map<String, String> env, ProcessBuilder.Redirect output, String... command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).redirectOutput(output);
        builder.environment().clear();
        builder.environment().put("PATH", tools.resolve("bin") + ":/usr/bin:/bin");
        builder.environment().put("JAVA_HOME", tools.resolve("jdk").toString());
        builder.environment().put("HOME", tools.toString());
        // the script's build log lives here: a run the test kills outright leaves it behind, in the test's own directory
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        builder.environment().put("TMPDIR", tmp.toString());
        builder.environment().putAll(env);
        return builder.start();
    }

    /**
     * A jar built at {@link #BUILT}, with every file and directory older than it (a directory's time
     * counts too: it changes when a source file is added or deleted).
     */
    private void builtJar() throws IOException {
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "jar");
        Files.writeString(builtMark(), "");
        try (var paths = Files.walk(clone)) {
            for (Path path : paths.toList()) {
                Files.setLastModifiedTime(path, FileTime.from(BUILT.minusSeconds(3600)));
            }
        }
        Files.setLastModifiedTime(jar, FileTime.from(BUILT));
        Files.setLastModifiedTime(builtMark(), FileTime.from(BUILT));
    }

    /** What the script writes once Maven has built the jar completely. */
    private Path builtMark() {
        return clone.resolve("omcp-app/target/omcp.jar.complete");
    }

    /** Waits until {@code file} has content and returns it stripped. */
    private static String awaitFile(Path file, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(file) || Files.readString(file).isBlank()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(50);
        }
        return Files.readString(file).strip();
    }

    /** A PATH with the fake mvn and the commands the script and the fakes use, except {@code missing}. */
    private String pathWithout(String missing) throws IOException {
        Path bin = tools.resolve("bin-without-" + missing);
        if (Files.isDirectory(bin)) {
            return bin.toString();
        }
        Files.createDirectories(bin);
        for (String command : List.of("bash", "sh", "sed", "find", "dirname", "readlink", "cut", "rm", "mkdir", "mktemp", "cat",
                "sleep", "ln", "flock", "ps", "rmdir")) {
            Path real = Files.exists(Path.of("/usr/bin", command)) ? Path.of("/usr/bin", command) : Path.of("/bin", command);
            if (!command.equals(missing) && Files.exists(real)) {
                Files.createSymbolicLink(bin.resolve(command), real);
            }
        }
        Files.createSymbolicLink(bin.resolve("mvn"), tools.resolve("bin/mvn"));
        return bin.toString();
    }

    private static void newerThanTheJar(Path file) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(BUILT.plusSeconds(60)));
    }

    private static List<String> lines(Path log) throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
