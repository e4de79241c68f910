/** {@code omcp demo}: the gateway on a simulated shop with an injected incident. */
package dev.omcp.app.demo;
