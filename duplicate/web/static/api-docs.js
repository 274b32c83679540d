/* Swagger UI at /api/docs: its bundle comes from the installed package fastapi-offline
   (/static/docs/); this file starts it, so that the page needs no inline script. */
(function () {
  var box = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: box.getAttribute('data-spec'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
    showExtensions: true,
    showCommonExtensions: true
  });
})();
