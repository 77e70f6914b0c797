// The register's map: one marker per site listed, with its permit and orders. The table
// above holds the same facts, so the page works without it.
(function () {
  "use strict";
  var box = document.getElementById("register-map");
  var data = document.getElementById("register-features");
  if (!box || !data || typeof L === "undefined") { return; }
  var features = JSON.parse(data.textContent);
  if (!features.features || !features.features.length) { return; }
  box.hidden = false;
  var map = L.map(box);
  var layer = L.geoJSON(features, {
    onEachFeature: function (feature, marker) {
      var p = feature.properties;
      var text = document.createElement("div");
      text.textContent = (p.permit ? "Permit " + p.permit + ": " : "") + p.address + " (" + p.status + ")" +
        (p.stop_work_order_in_force ? ". Stop-work order in force." : "");
      marker.bindPopup(text);
    }
  }).addTo(map);
  map.fitBounds(layer.getBounds(), { maxZoom: 16, padding: [20, 20] });
  L.control.scale().addTo(map);
})();
