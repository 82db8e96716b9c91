// Swagger UI (5.x, reads OpenAPI 3.1) on this server's schema; a file, not an inline script,
// so the page keeps working under a Content-Security-Policy without 'unsafe-inline'.
"use strict";
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
  validatorUrl: null, // no badge from an outside validator: the page stays on this server
});
