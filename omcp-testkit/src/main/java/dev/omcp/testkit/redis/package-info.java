/** A real redis-server on a free loopback port, for tests of shared state (tag "backend"). */
package dev.omcp.testkit.redis;
