/**
 * A small loopback HTTP server for recorded backend fakes: routes, a log of every request, and
 * injected failures (an error answer, a slow answer) for the next calls.
 */
package dev.omcp.testkit.backend;
