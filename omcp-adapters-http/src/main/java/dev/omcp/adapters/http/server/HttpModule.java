package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.api.ApiRoutes;

/** A group of routes added to the server, for example the management API. */
@FunctionalInterface
public interface HttpModule {
    void register(ApiRoutes routes);
}
