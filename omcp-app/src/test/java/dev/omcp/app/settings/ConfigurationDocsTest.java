package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/configuration.md documents every variable the settings reader knows, aliases included. */
class ConfigurationDocsTest {
    private static final Pattern DEFAULT_CELL = Pattern.compile("^\\| `([A-Z][A-Z0-9_]*)`[^|]*\\|([^|]*)\\|", Pattern.MULTILINE);
    private static final Pattern LITERAL = Pattern.compile("`([^`]*)`");
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z][A-Z0-9_]*)`([^|]*)\\|", Pattern.MULTILINE);

    /** Documented variable name to the rest of its first cell, where aliases are named. */
    private static Map<String, String> documentedRows() throws IOException {
        Path page = Path.of("..", "docs", "configuration.md");
        assertThat(page).as("docs/configuration.md, read from the omcp-app module directory").exists();
        Matcher matcher = ROW.matcher(Files.readString(page));
        Map<String, String> rows = new HashMap<>();
        while (matcher.find()) {
            rows.put(matcher.group(1), matcher.group(2));
        }
        return rows;
    }

    @Test
    void everyVariable_isDocumented() throws IOException {
        Map<String, String> documented = documentedRows();
        List<String> missing = new ArrayList<>();
        for (Variable variable : Variables.ALL) {
            if (!documented.containsKey(variable.name())) {
                missing.add(variable.name());
            }
        }
        assertThat(missing).as("variables read by SettingsReader but not documented in docs/configuration.md").isEmpty();
    }

    @Test
    void everyAlias_isNamedInItsVariablesRow() throws IOException {
        Map<String, String> documented = documentedRows();
        List<String> missing = new ArrayList<>();
        for (Variable variable : Variables.ALL) {
            for (String alias : variable.aliases()) {
                if (!documented.getOrDefault(variable.name(), "").contains("`" + alias + "`")) {
                    missing.add(alias + " (alias of " + variable.name() + ")");
                }
            }
        }
        assertThat(missing).as("aliases the settings reader accepts but docs/configuration.md does not name").isEmpty();
    }

    /** The other direction: a row for a variable nobody reads sends operators after a setting that does nothing. */
    @Test
    void everyDocumentedVariable_isReadByTheGatewayOrTheScript() throws IOException {
        List<String> known = new ArrayList<>(UnknownVariables.knownNames());
        known.add("JAVA_HOME"); // read by the ./omcp script only, like OMCP_AOT and OMCP_JAVA_OPTS
        List<String> unread = new ArrayList<>(documentedRows().keySet());
        unread.removeAll(known);
        assertThat(unread).as("variables docs/configuration.md lists but neither Variables nor the ./omcp script reads").isEmpty();
    }

    /** A default shown as one literal ({@code `3000`}) is the code's default; "unset", "(none)" mean it has none. */
    @Test
    void everyLiteralDefault_isTheCodesDefault() throws IOException {
        Matcher matcher = DEFAULT_CELL.matcher(Files.readString(Path.of("..", "docs", "configuration.md")));
        Map<String, String> documented = new HashMap<>();
        while (matcher.find()) {
            documented.put(matcher.group(1), matcher.group(2).trim());
        }
        List<String> differing = new ArrayList<>();
        for (Variable variable : Variables.ALL) {
            String cell = documented.getOrDefault(variable.name(), "");
            Matcher literal = LITERAL.matcher(cell);
            // a <placeholder> is derived from another setting, which the code does at read time
            if (literal.matches() && !literal.group(1).contains("<") && !literal.group(1).equals(variable.defaultValue())) {
                differing.add(variable.name() + ": page `" + literal.group(1) + "`, code '" + variable.defaultValue() + "'");
            }
            if ((cell.equals("unset") || cell.startsWith("(none")) && !variable.defaultValue().isEmpty()) {
                differing.add(variable.name() + ": page " + cell + ", code '" + variable.defaultValue() + "'");
            }
        }
        assertThat(differing).as("defaults that differ between docs/configuration.md and Variables").isEmpty();
    }

    /** The documentation check walks Variables.ALL, so a declared variable left out of it would escape. */
    @Test
    void everyDeclaredVariable_isInTheListTheCheckWalks() throws IllegalAccessException {
        List<String> leftOut = new ArrayList<>();
        for (Field field : Variables.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == Variable.class) {
                Variable variable = (Variable) field.get(null);
                if (!Variables.ALL.contains(variable)) {
                    leftOut.add(variable.name());
                }
            }
        }
        assertThat(leftOut).as("Variable constants missing from Variables.ALL").isEmpty();
    }

    /**
     * The {@code OMCP_*} variables the {@code ./omcp} script reads are documented and known to the unknown-name
     * warning: one added to the script alone would be warned about at every start as a typo, and found nowhere.
     */
    @Test
    void everyVariableTheScriptReads_isDocumented_andNotWarnedAboutAsUnknown() throws IOException {
        Matcher matcher = Pattern.compile("\\$\\{?(OMCP_[A-Z0-9_]+)").matcher(Files.readString(Path.of("..", "omcp")));
        List<String> read = new ArrayList<>();
        while (matcher.find()) {
            read.add(matcher.group(1));
        }
        assertThat(read).as("the script's own variables, found by the pattern").contains("OMCP_AOT", "OMCP_JAVA_OPTS");
        assertThat(documentedRows().keySet()).as("documented in docs/configuration.md").containsAll(read);
        assertThat(UnknownVariables.knownNames()).as("known to the unknown-variable warning").containsAll(read);
    }

    /**
     * Every variable the gateway reads goes through {@link SettingsReader}, which reads only what {@link Variables}
     * declares, so the checks above see them all. A {@code System.getenv} elsewhere would read a variable past them;
     * the Kubernetes connector's reads of what the kubelet sets in a pod are documented in docs/connectors.md.
     */
    @Test
    void theProcessEnvironment_isReadOnlyByTheSettingsReader() throws IOException {
        Map<String, String> allowed = Map.of(
                "SettingsReader.java", "the settings reader",
                "Credentials.java", "KUBERNETES_SERVICE_HOST and _PORT, docs/connectors.md");
        List<String> readers = new ArrayList<>();
        try (DirectoryStream<Path> modules = Files.newDirectoryStream(Path.of(".."), "omcp-*")) {
            for (Path module : modules) {
                Path sources = module.resolve("src/main/java");
                if (!Files.isDirectory(sources)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        if (Files.readString(file).contains("getenv") && !allowed.containsKey(file.getFileName().toString())) {
                            readers.add(file.toString());
                        }
                    }
                }
            }
        }
        assertThat(readers).as("classes that read the process environment past SettingsReader and Variables").isEmpty();
        assertThat(Files.readString(Path.of("..", "docs", "connectors.md"))).contains("KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT");
    }
}
