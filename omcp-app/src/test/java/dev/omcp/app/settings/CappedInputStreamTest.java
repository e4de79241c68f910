package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CappedInputStreamTest {
    @Test
    void aFileThatGrowsPastItsBoundWhileRead_stopsWithTheBoundNamed() {
        InputStream grown = new CappedInputStream(new ByteArrayInputStream(new byte[3 * 1024 * 1024 + 1]), Path.of("/data/ip.csv"),
                3 * 1024 * 1024);
        assertThatThrownBy(grown::readAllBytes).isInstanceOf(SettingsFiles.TooLarge.class)
                .hasMessage("/data/ip.csv grew past 3 MiB while being read");
    }

    @Test
    void upToTheBound_everyByteIsRead_byBlockOrOneByOne() throws Exception {
        assertThat(new CappedInputStream(new ByteArrayInputStream(new byte[100]), Path.of("x"), 100).readAllBytes()).hasSize(100);
        InputStream single = new CappedInputStream(new ByteArrayInputStream(new byte[] {1, 2}), Path.of("x"), 1);
        assertThat(single.read()).isEqualTo(1);
        assertThatThrownBy(single::read).isInstanceOf(SettingsFiles.TooLarge.class).hasMessageContaining("grew past 1 bytes");
    }
}
