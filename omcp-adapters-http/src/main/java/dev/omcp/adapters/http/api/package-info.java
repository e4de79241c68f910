/** The REST API: route catalog, OpenAPI document, public and management endpoints. */
package dev.omcp.adapters.http.api;
