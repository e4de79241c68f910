package dev.omcp.connectors.builtin.transport;

import dev.omcp.sdk.connector.ConnectorException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM certificates and private keys with the JDK alone: PKCS#8, PKCS#1 RSA and SEC1 EC keys
 * (the forms kubeconfigs, cert-manager and openssl produce). Messages name the setting and never
 * repeat key material.
 */
final class PemMaterial {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
    private static final byte[] RSA_OID = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
    private static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

    private PemMaterial() {}

    static List<Certificate> certificates(String pem, String setting) throws ConnectorException {
        if (!pem.contains("-----BEGIN CERTIFICATE-----")) {
            throw bad(setting + " is not a PEM certificate (expected -----BEGIN CERTIFICATE-----)");
        }
        try {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            if (certs.isEmpty()) {
                throw bad(setting + " holds no certificate");
            }
            return new ArrayList<>(certs);
        } catch (CertificateException e) {
            throw bad(setting + " is not a valid PEM certificate: " + e.getMessage());
        }
    }

    static PrivateKey privateKey(String pem, String setting) throws ConnectorException {
        Matcher m = BLOCK.matcher(pem);
        while (m.find()) {
            String type = m.group(1);
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(m.group(2));
            } catch (IllegalArgumentException e) {
                throw bad(setting + " has a PEM block that is not valid base64");
            }
            switch (type) {
                case "PRIVATE KEY" -> {
                    return pkcs8(der, setting);
                }
                case "RSA PRIVATE KEY" -> {
                    return pkcs8(wrap(RSA_OID, new byte[] {0x05, 0x00}, der), setting);
                }
                case "EC PRIVATE KEY" -> {
                    return pkcs8(wrap(EC_OID, sec1CurveOid(der, setting), der), setting);
                }
                case "ENCRYPTED PRIVATE KEY" -> throw bad(setting
                        + " is encrypted; decrypt it first (openssl pkcs8 -in key.pem -out plain.pem)");
                default -> {
                    // EC PARAMETERS and the like precede the key in some files
                }
            }
        }
        throw bad(setting + " is not a PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC)");
    }

    private static PrivateKey pkcs8(byte[] der, String setting) throws ConnectorException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "EdDSA")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw bad(setting + " holds a private key of an unsupported algorithm or a damaged key");
    }

    /** PKCS#8 PrivateKeyInfo: SEQUENCE { INTEGER 0, SEQUENCE { oid, params }, OCTET STRING key }. */
    private static byte[] wrap(byte[] algorithmOid, byte[] params, byte[] key) {
        byte[] algorithm = tlv(0x30, concat(algorithmOid, params));
        return tlv(0x30, concat(new byte[] {0x02, 0x01, 0x00}, algorithm, tlv(0x04, key)));
    }

    /** The named-curve OID in a SEC1 ECPrivateKey's {@code [0] parameters}. */
    private static byte[] sec1CurveOid(byte[] der, String setting) throws ConnectorException {
        int[] pos = {0};
        if (readTag(der, pos) != 0x30) {
            throw bad(setting + " is not a valid EC private key");
        }
        int end = readLength(der, pos) + pos[0];
        while (pos[0] < end && pos[0] < der.length) {
            int tag = readTag(der, pos);
            int length = readLength(der, pos);
            if (tag == 0xa0) {
                int start = pos[0];
                byte[] oid = new byte[length];
                System.arraycopy(der, start, oid, 0, length);
                return oid;
            }
            pos[0] += length;
        }
        throw bad(setting + " is an EC key without a named curve; convert it with openssl pkcs8 -topk8 -nocrypt");
    }

    private static int readTag(byte[] der, int[] pos) throws ConnectorException {
        if (pos[0] >= der.length) {
            throw bad("a private key is truncated");
        }
        return der[pos[0]++] & 0xff;
    }

    private static int readLength(byte[] der, int[] pos) throws ConnectorException {
        int first = readTag(der, pos);
        if (first < 0x80) {
            return first;
        }
        int count = first & 0x7f;
        if (count > 3) {
            throw bad("a private key has an impossible length");
        }
        int length = 0;
        for (int i = 0; i < count; i++) {
            length = (length << 8) | readTag(der, pos);
        }
        return length;
    }

    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >>> 8);
            out.write(n);
        } else {
            out.write(0x83);
            out.write(n >>> 16);
            out.write(n >>> 8);
            out.write(n);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static ConnectorException bad(String message) {
        return new ConnectorException(ConnectorException.Kind.BAD_QUERY, message);
    }
}
