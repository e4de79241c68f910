package dev.omcp.adapters.http.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The media type of each kind of file the Web UI ships; anything else is not served. */
class ContentTypesTest {

    @Test
    void eachKindTheUiShips_hasTheTypeABrowserNeeds_textWithItsCharset() {
        assertThat(ContentTypes.of("index.html")).hasValue("text/html;charset=utf-8");
        // with nosniff a module script runs only when its type is JavaScript
        assertThat(ContentTypes.of("js/pages/inspect.js")).hasValue("text/javascript;charset=utf-8");
        assertThat(ContentTypes.of("app.css")).hasValue("text/css;charset=utf-8");
        assertThat(ContentTypes.of("logo.svg")).hasValue("image/svg+xml");
        assertThat(ContentTypes.of("icon.PNG")).as("the extension in any case").hasValue("image/png");
        assertThat(ContentTypes.of("strings.json")).hasValue("application/json");
    }

    @Test
    void aNameWithoutAnExtensionTheUiShips_hasNoType_soItIsNotServed() {
        assertThat(ContentTypes.of("js")).as("a folder").isEmpty();
        assertThat(ContentTypes.of("js.d/pages")).as("a dot in a folder's name is no extension").isEmpty();
        assertThat(ContentTypes.of("app.")).isEmpty();
        assertThat(ContentTypes.of(".js")).as("a hidden file has no extension").isEmpty();
        assertThat(ContentTypes.of("UiRoutes.class")).isEmpty();
        assertThat(ContentTypes.of("logback.xml")).isEmpty();
        assertThat(ContentTypes.of("users.properties")).isEmpty();
    }
}
