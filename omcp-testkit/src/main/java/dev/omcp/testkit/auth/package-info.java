/** Helpers for tests of logins: concurrent guesses held at the password verification. */
package dev.omcp.testkit.auth;
