/**
 * Files of the management login: the users file, the revocation journal (JSONL, mode 0600) and
 * the dynamic client registrations (JSON, mode 0600, written atomically).
 */
package dev.omcp.adapters.storage.auth;
