/**
 * Shared state of several replicas in Redis ({@code OMCP_REDIS_URL}, alias {@code OMCP_STORE_URL}):
 * account lockout and the session blocklist; and the SCIM directory ({@code OMCP_SCIM_REDIS_URL}). Every
 * change that reads and writes runs as one Lua script, so replicas never race a read-modify-write.
 */
package dev.omcp.adapters.storage.redis;
