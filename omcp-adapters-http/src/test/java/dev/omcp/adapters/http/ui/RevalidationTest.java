package dev.omcp.adapters.http.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RFC 9110 13.1.2: If-None-Match compares weakly and names the current version, or any with {@code *}. */
class RevalidationTest {

    @Test
    void theCurrentTag_weakOrStrong_inAListOrAlone_orAStar_isNotModified() {
        assertThat(Revalidation.notModified("\"abc\"", "abc")).isTrue();
        assertThat(Revalidation.notModified("W/\"abc\"", "abc")).as("weak comparison").isTrue();
        assertThat(Revalidation.notModified("\"old\", \"abc\"", "abc")).isTrue();
        assertThat(Revalidation.notModified(" * ", "abc")).isTrue();
    }

    @Test
    void noHeader_anotherTag_orSomethingThatIsNoTag_sendsTheFile() {
        assertThat(Revalidation.notModified(null, "abc")).isFalse();
        assertThat(Revalidation.notModified("\"old\"", "abc")).isFalse();
        assertThat(Revalidation.notModified("abc", "abc")).as("without quotes it is no entity tag").isFalse();
        assertThat(Revalidation.notModified("\"abc", "abc")).isFalse();
        assertThat(Revalidation.notModified("", "abc")).isFalse();
        assertThat(Revalidation.notModified("\"\"", "abc")).isFalse();
    }
}
