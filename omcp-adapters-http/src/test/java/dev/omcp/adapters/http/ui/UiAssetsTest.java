package dev.omcp.adapters.http.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Which names reach the classpath, what comes back, and that nothing outside the UI's folder can be read. */
class UiAssetsTest {

    /** Resources from a map, counting each lookup, in place of a jar. */
    private static final class Resources extends ClassLoader {
        final Map<String, byte[]> files = new HashMap<>();
        final AtomicInteger lookups = new AtomicInteger();

        Resources() {
            super(null);
        }

        Resources with(String name, String content) {
            files.put(name, content.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            lookups.incrementAndGet();
            byte[] bytes = files.get(name);
            return bytes == null ? null : new ByteArrayInputStream(bytes);
        }
    }

    private static UiAsset found(UiAssets assets, String name) {
        UiAssets.Lookup lookup = assets.find(name);
        assertThat(lookup).as(name).isInstanceOf(UiAssets.Lookup.Found.class);
        return ((UiAssets.Lookup.Found) lookup).asset();
    }

    @Test
    void theShippedPageAndItsScripts_areFound_withTheirTypes() {
        UiAssets shipped = new UiAssets(UiAssets.class.getClassLoader(), "ui/");

        UiAsset page = found(shipped, "index.html");
        assertThat(page.contentType()).isEqualTo("text/html;charset=utf-8");
        assertThat(new String(page.bytes(), StandardCharsets.UTF_8)).contains("<script type=\"module\" src=\"/ui/js/app.js\">");
        assertThat(found(shipped, "js/app.js").contentType()).isEqualTo("text/javascript;charset=utf-8");
        assertThat(found(shipped, "js/pages/inspect.js").contentType()).isEqualTo("text/javascript;charset=utf-8");
        assertThat(found(shipped, "app.css").contentType()).isEqualTo("text/css;charset=utf-8");
    }

    @Test
    void theShippedScripts_neverPutDataIntoTheDomAsHtml_andFetchNothingFromOtherSites() {
        // the pages build the DOM from text nodes only, so a value from the API can never become markup
        UiAssets shipped = new UiAssets(UiAssets.class.getClassLoader(), "ui/");
        for (String name : List.of("js/app.js", "js/api.js", "js/dom.js", "js/login.js", "js/pages/parts.js",
                "js/pages/overview.js", "js/pages/sources.js", "js/pages/services.js", "js/pages/audit.js",
                "js/pages/inspect.js", "js/pages/products.js", "js/pages/postmortems.js", "js/pages/settings.js",
                "js/pages/usage.js", "index.html", "app.css")) {
            String content = new String(found(shipped, name).bytes(), StandardCharsets.UTF_8);
            assertThat(content).as(name).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(")
                    .doesNotContain("http://", "https://", "//cdn");
        }
    }

    @Test
    void aNameThatLeavesTheFolder_orNamesAHiddenFile_isRefusedBeforeAnyLookup() {
        Resources resources = new Resources().with("secret.js", "secret").with("ui/.env.js", "hidden");
        UiAssets assets = new UiAssets(resources, "ui/");

        for (String name : List.of("../secret.js", "js/../../secret.js", "..", ".", ".env.js", "js/./app.js", "/secret.js",
                "js//app.js", "js/", "..\\secret.js", "a b.js", "%2e%2e/secret.js", "", "a/b/c/d/e.js", "x".repeat(201) + ".js")) {
            assertThat(assets.find(name)).as(name).isInstanceOf(UiAssets.Lookup.NotAName.class);
        }
        assertThat(resources.lookups).as("no refused name reached the class loader").hasValue(0);
        assertThat(((UiAssets.Lookup.NotAName) assets.find("../secret.js")).problem()).doesNotContain("secret")
                .contains("not starting with '.'");
    }

    @Test
    void aFolder_aFileOfAKindTheUiDoesNotShip_orANameThatIsNotThere_isMissing() {
        Resources resources = new Resources().with("ui/js", "a listing a file system would give for a folder")
                .with("ui/users.properties", "alice=secret");
        UiAssets assets = new UiAssets(resources, "ui/");

        assertThat(assets.find("js")).as("a folder is never listed").isInstanceOf(UiAssets.Lookup.Missing.class);
        assertThat(assets.find("users.properties")).isInstanceOf(UiAssets.Lookup.Missing.class);
        assertThat(assets.find("nowhere.js")).isInstanceOf(UiAssets.Lookup.Missing.class);
        assertThat(resources.lookups).as("only the name with a type the UI ships was looked up").hasValue(1);
    }

    @Test
    void aFileIsReadOnce_andKeepsOneTag_whileANewContentGetsAnotherTag() {
        Resources first = new Resources().with("ui/app.js", "console.log(1);");
        UiAssets assets = new UiAssets(first, "ui/");

        UiAsset read = found(assets, "app.js");
        assertThat(found(assets, "app.js").entityTag()).isEqualTo(read.entityTag());
        assertThat(first.lookups).hasValue(1);
        assertThat(read.entityTag()).matches("[A-Za-z0-9_-]{24}");

        UiAsset changed = found(new UiAssets(new Resources().with("ui/app.js", "console.log(2);"), "ui/"), "app.js");
        assertThat(changed.entityTag()).isNotEqualTo(read.entityTag());
    }

    @Test
    void aFileLargerThanAnyOfTheUi_isAPackagingMistake_namedInTheFailure() {
        Resources resources = new Resources().with("ui/huge.js", "x".repeat(UiAssets.MAX_BYTES + 1));
        UiAssets assets = new UiAssets(resources, "ui/");

        assertThatThrownBy(() -> assets.find("huge.js")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ui/huge.js").hasMessageContaining("larger than " + UiAssets.MAX_BYTES);
    }

    @Test
    void theFolderIsARelativeResourcePathEndingInASlash() {
        assertThatThrownBy(() -> new UiAssets(new Resources(), "/ui/")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UiAssets(new Resources(), "ui")).isInstanceOf(IllegalArgumentException.class);
    }
}
