/**
 * Real backends started as processes by test fixtures, on free loopback ports. Tests using them are
 * tagged {@code backend}: they run when {@code OMCP_TEST_BACKENDS=true} and fail, never skip, when
 * the backend binary is missing.
 */
package dev.omcp.testkit.backends;
