package com.acme.jaeger;

import dev.omcp.testkit.packaging.HubWriter;
import dev.omcp.testkit.packaging.PluginPackager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * The packing program of docs/writing-a-connector.md: run by the build before the tests that load
 * the plugin, in the project directory, with the version as its argument and
 * {@code JAEGER_SIGNING_KEY} naming the signing key, a PKCS#8 PEM file kept out of the project.
 */
public final class PackPlugin {
    private PackPlugin() {}

    public static void main(String[] args) throws IOException, GeneralSecurityException {
        if (args.length != 1 || System.getenv("JAEGER_SIGNING_KEY") == null) {
            throw new IllegalArgumentException("usage: JAEGER_SIGNING_KEY=<PKCS#8 PEM file> PackPlugin <version>");
        }
        PrivateKey key = signingKey(Path.of(System.getenv("JAEGER_SIGNING_KEY")));   // see below for OpenSSL's PEM file
        PluginPackager.Packed packed = PluginPackager.pack(
                new PluginPackager.Source("jaeger", args[0], Path.of("target/classes"), Path.of("src/main/resources"),
                        Path.of("src/main/plugin/manifest.json")),
                key, Path.of("target/plugin/jaeger"));
        new HubWriter(Path.of("target/hub")).publish(packed, "First release.", "2026-03-01");
    }

    static PrivateKey signingKey(Path pemFile) throws IOException, GeneralSecurityException {
        String pem = Files.readString(pemFile);   // -----BEGIN PRIVATE KEY-----
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));  // "RSA" or "EC" for those keys
    }
}
