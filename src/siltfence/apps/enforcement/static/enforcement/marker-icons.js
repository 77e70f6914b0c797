// Leaflet finds its marker images from the address of its own stylesheet, which the static
// files' names (with their contents' hash in them) break: it would ask for
// /register/marker-icon.png and show a broken image on every site. The page gives the
// images' addresses on this script's tag instead.
(function () {
  "use strict";
  var tag = document.currentScript;
  if (!tag || typeof L === "undefined") { return; }
  L.Icon.Default.imagePath = "";
  L.Icon.Default.mergeOptions({
    iconUrl: tag.dataset.icon,
    iconRetinaUrl: tag.dataset.retina,
    shadowUrl: tag.dataset.shadow
  });
})();
