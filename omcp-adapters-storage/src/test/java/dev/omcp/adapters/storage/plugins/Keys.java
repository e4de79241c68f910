package dev.omcp.adapters.storage.plugins;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/** Signing keys for tests: generated per run, never stored. */
final class Keys {
    private Keys() {}

    static KeyPair ed25519() {
        return generate("Ed25519", null);
    }

    static KeyPair rsa() {
        return generate("RSA", null);
    }

    static KeyPair ec() {
        return generate("EC", "secp256r1");
    }

    private static KeyPair generate(String algorithm, String curve) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (curve != null) {
                generator.initialize(new ECGenParameterSpec(curve));
            } else if (algorithm.equals("RSA")) {
                generator.initialize(2048);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String publicPem(KeyPair pair) {
        return pem("PUBLIC KEY", pair.getPublic().getEncoded());
    }

    static String privatePem(KeyPair pair) {
        return pem("PRIVATE KEY", pair.getPrivate().getEncoded());
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static byte[] sign(KeyPair pair, byte[] data) {
        String algorithm = switch (pair.getPrivate().getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> "Ed25519";
        };
        try {
            Signature signature = Signature.getInstance(algorithm);
            signature.initSign(pair.getPrivate());
            signature.update(data);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
