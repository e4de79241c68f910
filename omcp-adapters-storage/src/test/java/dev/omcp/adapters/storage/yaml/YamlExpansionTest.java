package dev.omcp.adapters.storage.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

class YamlExpansionTest {
    private static Object load(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(50);
        options.setCodePointLimit(8 << 20);
        return new Yaml(new SafeConstructor(options)).load(yaml);
    }

    @Test
    void aDocumentIsMeasuredAsItsAliasesExpandIt() {
        Object loaded = load("a: &x \"" + "y".repeat(1000) + "\"\nb: [" + String.join(", ", Collections.nCopies(100, "*x")) + "]\n");
        assertThat(YamlExpansion.within(loaded, 110_000)).isTrue();
        assertThat(YamlExpansion.within(loaded, 100_000)).isFalse(); // 101 copies of 1000 characters
    }

    @Test
    void selfReferencingCollectionsEndAtTheBound() {
        List<Object> list = new ArrayList<>();
        list.add(list);
        list.add(list);
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) {
            map.put("k" + i, map);
        }
        assertThat(YamlExpansion.within(list, 1_000_000)).isFalse();
        assertThat(YamlExpansion.within(map, 1_000_000)).isFalse();
        assertThat(YamlExpansion.within(load("a: &a [*a, *a]\n"), 1_000_000)).isFalse();
    }

    @Test
    void emptyAndPlainValuesFit() {
        assertThat(YamlExpansion.within(null, 1)).isTrue();
        assertThat(YamlExpansion.within(load("sources: []\nn: 5\nb: !!binary aGVsbG8=\n"), 100)).isTrue();
    }
}
