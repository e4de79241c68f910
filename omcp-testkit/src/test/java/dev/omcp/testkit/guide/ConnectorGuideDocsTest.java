package dev.omcp.testkit.guide;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.jaeger.AuditHook;
import com.acme.jaeger.PackPlugin;
import dev.omcp.sdk.connector.DeclaredCapabilities;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.HookEntry;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/writing-a-connector.md shows only code of the example connector project in
 * {@code com.acme.jaeger} (compiled here; ConnectorGuideIT packs it and runs its plugin test), so an
 * author who copies a block copies working code; and what else the page says of the build and the
 * SDK is what they are.
 */
class ConnectorGuideDocsTest {
    private static final MarkdownPage PAGE = MarkdownPage.read("writing-a-connector.md");
    private static final Path EXAMPLES = Path.of("src", "test", "java", "com", "acme", "jaeger");
    private static final Path ROOT_POM = Path.of("..", "pom.xml");
    private static final Pattern OMCP_ARTIFACT = Pattern.compile("<artifactId>(omcp-[a-z-]+)</artifactId>");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern PINNED_ARTIFACT = Pattern.compile("<artifactId>([a-z.-]+)</artifactId>\\s*<version>([0-9][^<]*)</version>");
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    /** A class of the example project, by name ({@code com.acme.jaeger.PackPlugin}) or class file path. */
    private static final Pattern EXAMPLE_CLASS = Pattern.compile("\\bcom[./]acme[./]jaeger[./]([A-Z]\\w*)");
    private static final Pattern HOOK_MODULE = Pattern.compile("\"module\": \"([^\"]+)\"");
    private static final Pattern TYPE_MEMBER = Pattern.compile("\\b([A-Z]\\w*)\\.([A-Za-z_]\\w*)");
    private static final Pattern FULL_CLASS_NAME = Pattern.compile("\\bdev\\.omcp(?:\\.[a-z]+)+\\.[A-Z]\\w*");
    /** Where the types the page names by their simple name live: the SDK and the test kit. */
    private static final List<String> AUTHOR_PACKAGES = List.of("dev.omcp.sdk.connector", "dev.omcp.sdk.hook", "dev.omcp.sdk.http",
            "dev.omcp.sdk.json", "dev.omcp.sdk.manifest", "dev.omcp.sdk.query", "dev.omcp.sdk.text", "dev.omcp.testkit.connector",
            "dev.omcp.testkit.packaging");

    /** Lines without their indentation: the page indents blocks differently from the classes. */
    private static List<String> stripped(List<String> lines) {
        return lines.stream().map(String::strip).toList();
    }

    @Test
    void everyJavaBlock_isARunOfLinesOfAnExampleClass() throws IOException {
        List<List<String>> examples = new ArrayList<>();
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                examples.add(stripped(Files.readAllLines(file)));
            }
        }
        List<List<String>> blocks = PAGE.blocks("java");
        assertThat(blocks).as("the page's Java blocks").hasSizeGreaterThanOrEqualTo(5);

        List<String> strays = new ArrayList<>();
        for (List<String> block : blocks) {
            List<String> lines = stripped(block);
            if (examples.stream().noneMatch(example -> Collections.indexOfSubList(example, lines) >= 0)) {
                strays.add(lines.getFirst());
            }
        }
        assertThat(strays).as("Java blocks of docs/writing-a-connector.md (by their first line) that no class of "
                + EXAMPLES + " holds as they are").isEmpty();
    }

    @Test
    void everyClassOfTheExampleProjectThePageNames_isOneOfItsClasses() {
        List<String> named = matches(EXAMPLE_CLASS, PAGE.text());
        List<String> missing = named.stream().filter(name -> type(AuthorProject.EXAMPLE_PACKAGE + "." + name).isEmpty()).toList();

        assertThat(missing).as("classes of com.acme.jaeger that docs/writing-a-connector.md names but the example does not have").isEmpty();
        assertThat(named).contains(AuditHook.class.getSimpleName(), PackPlugin.class.getSimpleName());
    }

    @Test
    void theManifestsHook_isTheExamplesHook() {
        String hookPath = AuditHook.class.getName().replace('.', '/') + ".class";

        assertThat(matches(HOOK_MODULE, String.join("\n", manifestBlock()))).as("the hook modules of the page's manifest")
                .containsExactly(hookPath);
    }

    private static List<String> manifestBlock() {
        return PAGE.blocks("json").stream().filter(block -> String.join("\n", block).contains("\"schemaVersion\"")).findFirst().orElseThrow();
    }

    @Test
    void everyOmcpArtifactOfThePage_isAModuleOfTheBuildOrItsParent() throws IOException {
        String rootPom = Files.readString(ROOT_POM);
        List<String> artifacts = new ArrayList<>(matches(MODULE, rootPom));
        artifacts.add("omcp-parent"); // the root POM itself, which the page has authors import

        List<String> named = matches(OMCP_ARTIFACT, PAGE.text());
        assertThat(named).contains("omcp-connector-sdk", "omcp-testkit", "omcp-adapters-storage", "omcp-parent");
        assertThat(artifacts).containsAll(named);
    }

    @Test
    void theVersionThePageGivesThisRepository_isTheBuildsVersion() throws IOException {
        Matcher version = Pattern.compile("<artifactId>omcp-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(Files.readString(ROOT_POM));
        assertThat(version.find()).isTrue();

        assertThat(matches(Pattern.compile("\\(`([^`]+)` in this repository\\)"), PAGE.text())).as("the version the page gives this repository")
                .containsExactly(version.group(1));
    }

    @Test
    void theSdksOwnDependencies_areTheOnesThePageSaysItBrings() throws IOException {
        String dependencies = Files.readString(Path.of("..", "omcp-connector-sdk", "pom.xml"));
        List<String> runtime = new ArrayList<>();
        for (String dependency : matches(DEPENDENCY, dependencies)) {
            if (!dependency.contains("<scope>test</scope>")) {
                runtime.addAll(matches(ARTIFACT, dependency));
            }
        }
        List<String> named = new ArrayList<>();
        for (String sentence : matches(Pattern.compile("It brings (.*?) and nothing else\\."), PAGE.text())) {
            named.addAll(matches(Pattern.compile("`([^`]+)`"), sentence));
        }

        assertThat(named).as("what the page says the SDK brings").containsExactlyInAnyOrderElementsOf(runtime);
    }

    @Test
    void thePluginVersionsOfThePage_areTheOnesTheParentPinsWith() throws IOException {
        Map<String, String> pinnedByParent = pins(Files.readString(ROOT_POM));
        Map<String, String> named = new TreeMap<>();
        for (List<String> block : PAGE.blocks("xml")) {
            named.putAll(pins(String.join("\n", block)));
        }
        List<String> differing = new ArrayList<>();
        named.forEach((artifact, version) -> {
            if (!version.equals(pinnedByParent.get(artifact))) {
                differing.add(artifact + ": " + version + " on the page, " + pinnedByParent.get(artifact) + " in the parent POM");
            }
        });

        assertThat(named).containsKeys("exec-maven-plugin", "maven-failsafe-plugin");
        assertThat(differing).isEmpty();
    }

    @Test
    void theCapabilityTable_namesTheInterfacesEachManifestFlagDeclares() throws ReflectiveOperationException {
        Pattern row = Pattern.compile("^\\s*\\| `(\\w+)` \\| (.*Capability.*)\\|\\s*$", Pattern.MULTILINE);
        Pattern capability = Pattern.compile("`(\\w+Capability)`");
        List<String> flags = new ArrayList<>();
        Matcher rows = row.matcher(PAGE.text());
        while (rows.find()) {
            String flag = rows.group(1);
            flags.add(flag);
            Capabilities onlyThisFlag = only(flag);
            Set<String> declared = new TreeSet<>();
            DeclaredCapabilities.INTERFACES.stream().filter(type -> DeclaredCapabilities.declares(onlyThisFlag, type))
                    .forEach(type -> declared.add(type.getSimpleName()));
            assertThat(new TreeSet<>(matches(capability, rows.group(2)))).as("the interfaces of the row of " + flag).isEqualTo(declared);
        }
        assertThat(flags).as("the table's manifest flags").containsExactlyInAnyOrderElementsOf(
                Arrays.stream(Capabilities.class.getRecordComponents()).map(RecordComponent::getName).toList());
    }

    /** The capabilities with {@code flag} alone set. */
    private static Capabilities only(String flag) throws ReflectiveOperationException {
        RecordComponent[] components = Capabilities.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = components[i].getName().equals(flag);
            types[i] = components[i].getType();
        }
        return Capabilities.class.getDeclaredConstructor(types).newInstance(values);
    }

    @Test
    void everyOmcpClassThePageNamesInFull_exists() {
        List<String> missing = new ArrayList<>();
        List<String> named = matches(Pattern.compile("(" + FULL_CLASS_NAME.pattern() + ")"), PAGE.text());
        for (String name : named) {
            if (type(name).isEmpty()) {
                missing.add(name);
            }
        }
        assertThat(missing).as("classes docs/writing-a-connector.md names that the SDK and the kit do not have").isEmpty();
        assertThat(named).contains("dev.omcp.sdk.http.BackendApi", "dev.omcp.sdk.hook.Hook");
    }

    @Test
    void everyMemberThePageNamesOfAnSdkOrKitType_exists() {
        List<String> checked = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String code : matches(Pattern.compile("`([^`\\n]+)`"), prose())) {
            Matcher reference = TYPE_MEMBER.matcher(code);
            while (reference.find()) {
                Optional<Class<?>> type = authorType(reference.group(1));
                if (type.isPresent()) {
                    checked.add(reference.group());
                    if (!hasMember(type.get(), reference.group(2))) {
                        missing.add(reference.group());
                    }
                }
            }
        }
        assertThat(missing).as("Type.member references of docs/writing-a-connector.md that the SDK and the kit do not have").isEmpty();
        assertThat(checked).as("the references checked").hasSizeGreaterThanOrEqualTo(10);
    }

    /** The page outside its fenced blocks, where the Java blocks' compilation does not reach. */
    private static String prose() {
        StringBuilder prose = new StringBuilder();
        boolean inBlock = false;
        for (String line : PAGE.text().split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                inBlock = !inBlock;
            } else if (!inBlock) {
                prose.append(line).append('\n');
            }
        }
        return prose.toString();
    }

    private static boolean hasMember(Class<?> type, String member) {
        return Arrays.stream(type.getMethods()).anyMatch(method -> method.getName().equals(member))
                || Arrays.stream(type.getFields()).anyMatch(field -> field.getName().equals(member))
                || Arrays.stream(type.getClasses()).anyMatch(nested -> nested.getSimpleName().equals(member));
    }

    private static Optional<Class<?>> authorType(String simpleName) {
        return AUTHOR_PACKAGES.stream().map(pkg -> type(pkg + "." + simpleName)).flatMap(Optional::stream).findFirst();
    }

    private static Optional<Class<?>> type(String name) {
        try {
            return Optional.of(Class.forName(name, false, ConnectorGuideDocsTest.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    @Test
    void theDefaultHookPriority_isTheSdks() {
        assertThat(matches(Pattern.compile("ascending `priority` \\(default (\\d+)\\)"), PAGE.text())).as("the hooks' default priority")
                .containsExactly(Integer.toString(HookEntry.DEFAULT_PRIORITY));
    }

    @Test
    void everyLinkIntoTheRepository_leadsToAFileOrDirectory() {
        List<String> broken = PAGE.relativeLinks().stream().filter(target -> !Files.exists(PAGE.path().resolveSibling(target))).toList();

        assertThat(broken).as("links of docs/writing-a-connector.md to nothing").isEmpty();
        assertThat(PAGE.relativeLinks()).contains("../omcp-testkit/src/reference-plugins/zipkin", "plugins.md");
    }

    /** The first group of every match. */
    private static List<String> matches(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    /** The literal version of every artifact given one, by artifact. */
    private static Map<String, String> pins(String xml) {
        Map<String, String> pins = new TreeMap<>();
        Matcher pin = PINNED_ARTIFACT.matcher(xml);
        while (pin.find()) {
            pins.put(pin.group(1), pin.group(2));
        }
        return pins;
    }
}
