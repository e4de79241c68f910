/** The Javalin server that carries every HTTP route of the gateway. */
package dev.omcp.adapters.http.server;
