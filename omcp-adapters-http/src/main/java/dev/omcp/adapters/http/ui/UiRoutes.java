package dev.omcp.adapters.http.ui;

import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.server.HttpModule;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.Objects;

/**
 * Serves the Web UI (spec 1.3): {@code GET /ui/} is its page, {@code GET /ui/<file>} its scripts and styles, and
 * {@code GET /ui} and {@code GET /} redirect to {@code /ui/}. Registered through {@link ApiRoutes} like every other
 * route, so the server's Host/Origin guard and security headers (the content security policy, {@code frame-ancestors
 * 'none'}) apply, {@code HEAD} answers as {@code GET} does, and the OpenAPI document lists the paths. The routes are
 * public: the page holds no data, it asks {@code /api/me} who is signed in and shows the login otherwise.
 *
 * <p>Files are sent with {@code Cache-Control: no-cache} and an {@code ETag}: a browser asks again each time and gets
 * 304 while it holds the current version, so a new release of the gateway is never hidden behind an old cached
 * script. A name that cannot be a file of the UI (a {@code ..} part, a hidden file) is 400
 * {@code OMCP_INVALID_PARAMETERS}, a file the UI does not have (a folder among them) 404 {@code OMCP_NOT_FOUND}.
 */
public final class UiRoutes implements HttpModule {
    /** Where the UI is served. */
    public static final String PATH = "/ui/";
    private static final String PAGE = "index.html";
    private static final String FILE_PARAMETER = "file";

    private final UiAssets assets;

    /** The UI of this module's resources ({@code ui/}). */
    public UiRoutes() {
        this(new UiAssets(UiRoutes.class.getClassLoader(), "ui/"));
    }

    UiRoutes(UiAssets assets) {
        this.assets = Objects.requireNonNull(assets, "assets");
    }

    @Override
    public void register(ApiRoutes routes) {
        // Javalin matches /ui and /ui/ alike (it ignores a trailing slash): one route serves both and tells them apart
        routes.route(HandlerType.GET, "/").tag("ui").publicRoute()
                .summary("Redirects to the Web UI at " + PATH)
                .response(302, "Location: " + PATH, "")
                .handle(UiRoutes::toPage);
        routes.route(HandlerType.GET, "/ui").tag("ui").publicRoute()
                .summary("The Web UI's page at " + PATH + "; /ui without the slash redirects there")
                .response(200, "the page", ContentTypes.of(PAGE).orElseThrow())
                .response(302, "Location: " + PATH + " (asked as /ui)", "")
                .response(304, "not modified: If-None-Match names the current version", "")
                .handle(ctx -> {
                    if (ctx.path().endsWith("/")) {
                        serve(ctx, PAGE);
                    } else {
                        toPage(ctx);
                    }
                });
        routes.route(HandlerType.GET, "/ui/<" + FILE_PARAMETER + ">").tag("ui").publicRoute()
                .summary("A file of the Web UI (scripts, styles), with its ETag and Cache-Control: no-cache")
                // a media range: each kind of file has its own type (ContentTypes)
                .response(200, "the file, with the media type of its kind", "*/*")
                .response(304, "not modified: If-None-Match names the current version", "")
                .response(400, "the path cannot name a file of the Web UI: a part that is empty, starts with '.' or holds "
                        + "other characters than letters, digits, '_', '-' and '.' (OMCP_INVALID_PARAMETERS)")
                .response(404, "the Web UI has no such file (OMCP_NOT_FOUND); folders are not listed")
                .handle(ctx -> {
                    String name = ctx.pathParam(FILE_PARAMETER);
                    serve(ctx, name.isEmpty() ? PAGE : name);
                });
    }

    private static void toPage(Context ctx) {
        ctx.header("Location", PATH);
        ctx.status(302);
    }

    private void serve(Context ctx, String name) {
        switch (assets.find(name)) {
            case UiAssets.Lookup.Found found -> send(ctx, found.asset());
            case UiAssets.Lookup.Missing missing -> JsonResponses.error(ctx, 404, "OMCP_NOT_FOUND",
                    "the Web UI has no file " + PATH + name + "; open " + PATH);
            case UiAssets.Lookup.NotAName notAName -> JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS",
                    "the path cannot name a file of the Web UI: " + notAName.problem() + "; open " + PATH);
        }
    }

    private static void send(Context ctx, UiAsset asset) {
        ctx.header("ETag", "\"" + asset.entityTag() + "\"");
        // revalidated on every use (a 304 while current), so a new release is never hidden behind a cached script
        ctx.header("Cache-Control", "no-cache");
        if (Revalidation.notModified(ctx.header("If-None-Match"), asset.entityTag())) {
            ctx.status(304);
            // no body, so no media type: Javalin's default text/plain would name content that is not there
            ctx.res().setContentType(null);
            return;
        }
        ctx.status(200).contentType(asset.contentType()).result(asset.bytes());
    }
}
