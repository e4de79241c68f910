package dev.omcp.adapters.storage.policy;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.yaml.YamlExpansion;
import dev.omcp.adapters.storage.yaml.YamlProblem;
import dev.omcp.ports.access.PolicyDocument;
import dev.omcp.sdk.text.BackendText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads a custom role policy ({@code OMCP_RBAC_POLICY_FILE}):
 *
 * <pre>{@code
 * version: 1            # optional; only 1 exists
 * roles:
 *   auditor: [audit:read, policy:read]
 *   source-admin:
 *     - sources:*
 *   root: ["*"]
 * }</pre>
 *
 * Strict: only {@code version} and {@code roles} at the top, each role a list of strings, no
 * duplicate keys, no other YAML types, at most 1 MiB of UTF-8 in a regular file and 50 aliases. The permissions themselves
 * are checked against the catalog by the core. Every problem is reported at once.
 */
public final class YamlPolicyFile {
    private static final long MAX_BYTES = 1024 * 1024;
    private static final Set<String> TOP_LEVEL = Set.of("version", "roles");

    private YamlPolicyFile() {}

    /** Reads and checks the structure of {@code file}. */
    public static PolicyDocument read(Path file) throws InvalidPolicyFileException {
        return switch (OperatorTextFile.read(file, (int) MAX_BYTES)) {
            case OperatorTextFile.Read.Text text -> parse(text.text(), file.toString());
            case OperatorTextFile.Read.Unusable unusable -> throw new InvalidPolicyFileException(List.of(file + " " + unusable.reason()));
        };
    }

    /** Parses policy YAML; {@code source} names it in messages. */
    public static PolicyDocument parse(String yaml, String source) throws InvalidPolicyFileException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(50);
        options.setAllowRecursiveKeys(false);
        options.setCodePointLimit((int) MAX_BYTES);
        Object root;
        try {
            root = new Yaml(new SafeConstructor(options)).load(yaml);
        } catch (YAMLException e) {
            throw new InvalidPolicyFileException(List.of(source + " is not valid YAML " + YamlProblem.describe(e)));
        }
        // aliases of scalars are not bounded by maxAliasesForCollections: 1 MiB of them could each name one huge string
        if (!YamlExpansion.within(root, 4 * MAX_BYTES)) {
            throw new InvalidPolicyFileException(List.of(source + " expands to more than " + (4 * MAX_BYTES >> 20) + " MiB through its "
                    + "aliases (*name); write the repeated values out, or repeat fewer of them"));
        }
        if (root == null) {
            // said plainly: "must be a mapping" about a file the operator believes holds roles sends them looking for a typo
            throw new InvalidPolicyFileException(List.of(source + " is empty (nothing but blanks or comments); it must hold a 'roles' "
                    + "mapping, such as roles: {auditor: [audit:read]}"));
        }
        List<String> problems = new ArrayList<>();
        if (!(root instanceof Map<?, ?> top)) {
            throw new InvalidPolicyFileException(List.of(source + " must be a mapping with a 'roles' key"));
        }
        for (Object key : top.keySet()) {
            if (!(key instanceof String name) || !TOP_LEVEL.contains(name)) {
                problems.add("unknown top-level key '" + shown(key) + "'; allowed: version, roles");
            }
        }
        Object version = top.get("version");
        if (version != null && !Integer.valueOf(1).equals(version)) {
            problems.add("version must be 1, got '" + shown(version) + "'");
        }
        Map<String, List<String>> roles = new LinkedHashMap<>();
        Object rolesNode = top.get("roles");
        if (!(rolesNode instanceof Map<?, ?> roleMap)) {
            problems.add("'roles' must be a mapping of role name to a list of permissions");
        } else {
            roleMap.forEach((role, permissions) -> {
                if (!(role instanceof String roleName)) {
                    problems.add("role name '" + shown(role) + "' must be a string");
                    return;
                }
                if (!(permissions instanceof List<?> list)) {
                    problems.add("role '" + shown(roleName) + "' must map to a list of permissions, e.g. [sources:read]");
                    return;
                }
                List<String> texts = new ArrayList<>();
                for (Object permission : list) {
                    if (!(permission instanceof String text)) {
                        problems.add("role '" + shown(roleName) + "': '" + shown(permission) + "' is not a string; quote it");
                        continue;
                    }
                    texts.add(text.trim());
                }
                roles.put(roleName, texts);
            });
        }
        if (!problems.isEmpty()) {
            throw new InvalidPolicyFileException(problems);
        }
        return new PolicyDocument(roles);
    }

    /** A value from the file as a message quotes it: YAML escapes ({@code "\e[2J"}) can put control characters in it, and it may be a large nested structure. */
    private static String shown(Object value) {
        return BackendText.quoted(value, 64);
    }
}
