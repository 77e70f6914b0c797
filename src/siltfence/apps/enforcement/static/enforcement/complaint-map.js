// The complaint form's map: a tap or click fills in the latitude and longitude fields.
// Without JavaScript the fields are typed by hand, or the address is enough.
(function () {
  "use strict";
  var box = document.getElementById("complaint-map");
  var lat = document.getElementById("id_latitude");
  var lon = document.getElementById("id_longitude");
  var village = document.getElementById("id_village");
  if (!box || !lat || !lon || typeof L === "undefined") { return; }
  var centres = JSON.parse(document.getElementById("map-centres").textContent || "{}");
  box.hidden = false;
  var first = centres[village.value] || centres[Object.keys(centres)[0]] || [44.75, -90.3];
  var map = L.map(box).setView(first, 15);
  if (box.dataset.tiles) {
    L.tileLayer(box.dataset.tiles, { attribution: box.dataset.attribution || "" }).addTo(map);
  }
  L.control.scale().addTo(map);
  var marker = null;
  function place(latlng) {
    if (marker) { marker.setLatLng(latlng); } else { marker = L.marker(latlng).addTo(map); }
    lat.value = latlng.lat.toFixed(6);
    lon.value = latlng.lng.toFixed(6);
  }
  map.on("click", function (e) { place(e.latlng); });
  village.addEventListener("change", function () {
    var c = centres[village.value];
    if (c) { map.setView(c, 15); }
  });
  if (lat.value && lon.value) { place(L.latLng(parseFloat(lat.value), parseFloat(lon.value))); }
})();
