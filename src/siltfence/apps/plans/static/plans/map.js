/* The plan map: show the stored plan's features, draw and import more, give them their
 * properties, and save the whole plan as JSON. The server checks and measures everything
 * (EPSG:3071); this page never computes an area itself. No inline script or style: the
 * page's data comes from the JSON script element "plan-data" (CSP script-src 'self'). */
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("plan-data").textContent);
  var KINDS = data.kinds;
  var COMMON = data.common;
  var plan = data.plan;
  var canEdit = data.canEdit;

  function $(id) { return document.getElementById(id); }
  function label(name) { return name.replace(/_/g, " "); }

  // -- messages ---------------------------------------------------------------------------
  var statusBox = $("plan-status");
  var errorBox = $("plan-error");
  function say(text, unsaved) {
    statusBox.textContent = text;
    statusBox.classList.toggle("unsaved", Boolean(unsaved));
  }
  function showError(text) {
    errorBox.textContent = "";
    var strong = document.createElement("strong");
    strong.textContent = "Please check: ";
    errorBox.appendChild(strong);
    errorBox.appendChild(document.createTextNode(text));
    errorBox.hidden = false;
  }
  function clearError() { errorBox.hidden = true; errorBox.textContent = ""; }
  function dirty() {
    var flag = $("plan-dirty");
    if (flag) { flag.hidden = false; }
  }

  // -- the map ----------------------------------------------------------------------------
  var map = L.map("plan-map", { zoomSnap: 0.5 });
  // Give the map a view at once, so that features added below are drawn (and styled by
  // kind) immediately; fit() then frames them.
  map.setView(data.centre, 16);
  if (data.tiles.url) {
    L.tileLayer(data.tiles.url, {
      attribution: data.tiles.attribution || "",
      maxZoom: 21,
      maxNativeZoom: 19
    }).addTo(map);
  }
  L.control.scale({ imperial: true, metric: true }).addTo(map);
  var drawn = L.featureGroup().addTo(map);
  var selected = null;

  function kindOf(layer) {
    var props = layer.feature && layer.feature.properties;
    return (props && props.kind) || "";
  }
  function elementsOf(layer) {
    if (layer.getElement) { return [layer.getElement()].filter(Boolean); }
    var found = [];
    if (layer.eachLayer) { layer.eachLayer(function (part) { found = found.concat(elementsOf(part)); }); }
    return found;
  }
  function paint(layer) {
    var kind = KINDS[kindOf(layer)] ? kindOf(layer) : "unknown";
    elementsOf(layer).forEach(function (element) {
      Array.prototype.slice.call(element.classList).forEach(function (name) {
        if (name.indexOf("kind-") === 0) { element.classList.remove(name); }
      });
      element.classList.add("plan-feature", "kind-" + kind);
      element.classList.toggle("selected", layer === selected);
    });
  }
  function layers() {
    return drawn.getLayers().filter(function (layer) { return map.hasLayer(layer); });
  }

  function adopt(layer) {
    layer.on("click", function (event) {
      L.DomEvent.stopPropagation(event);
      select(layer);
    });
    layer.on("pm:edit", dirty);
    paint(layer);
  }

  function addCollection(collection) {
    var added = [];
    L.geoJSON(collection, {
      pointToLayer: function (feature, latlng) { return L.circleMarker(latlng, { radius: 7 }); }
    }).eachLayer(function (layer) {
      drawn.addLayer(layer);
      adopt(layer);
      added.push(layer);
    });
    return added;
  }

  function fit() {
    map.invalidateSize();  // the container's size may settle after the stylesheet loads
    var bounds = drawn.getBounds();
    if (bounds.isValid()) {
      map.fitBounds(bounds, { padding: [24, 24], maxZoom: 19 });
    } else {
      map.setView(data.centre, 16);
    }
  }

  // -- the feature list (also the keyboard way to select a feature) ------------------------
  function describe(layer) {
    var props = (layer.feature && layer.feature.properties) || {};
    var text = props.kind ? label(props.kind) : "no kind yet";
    if (props.id) { text += " " + props.id; }
    if (props.name) { text += " (" + props.name + ")"; }
    if (props.phase) { text += ", phase " + props.phase; }
    return text;
  }
  function relist() {
    var list = $("feature-list");
    list.textContent = "";
    layers().forEach(function (layer) {
      var item = document.createElement("li");
      item.classList.toggle("selected", layer === selected);
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = describe(layer);
      button.addEventListener("click", function () { select(layer); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  // -- the selected feature's properties -------------------------------------------------
  var form = $("feature-form");
  var fields = $("feature-fields");

  function input(name, spec, value) {
    var wrap = document.createElement("div");
    var id = "prop-" + name;
    var control = document.createElement("input");
    control.id = id;
    control.dataset.prop = name;
    control.dataset.type = spec.type;
    var text = label(name) + (spec.unit ? " (" + spec.unit + ")" : "") + (spec.required ? ", required" : "");
    var caption = document.createElement("label");
    caption.htmlFor = id;
    caption.textContent = text;
    if (spec.type === "bool") {
      wrap.className = "check";
      control.type = "checkbox";
      control.checked = value === true;
      wrap.appendChild(control);
      wrap.appendChild(caption);
      return wrap;
    }
    control.type = spec.type === "date" ? "date" : "text";
    if (spec.type === "quantity" || spec.type === "coefficient") { control.inputMode = "decimal"; }
    control.value = value === undefined || value === null ? "" : String(value);
    wrap.appendChild(caption);
    wrap.appendChild(control);
    return wrap;
  }

  function renderFields(kind, props) {
    fields.textContent = "";
    var spec = KINDS[kind];
    var hint = document.createElement("p");
    hint.className = "small";
    hint.textContent = spec ? spec.meaning + "; drawn as " + spec.geometries.join(" or ") + "." : "";
    fields.appendChild(hint);
    var own = spec ? spec.properties : {};
    Object.keys(own).forEach(function (name) { fields.appendChild(input(name, own[name], props[name])); });
    COMMON.forEach(function (name) {
      if (!(name in own)) { fields.appendChild(input(name, { type: "text", unit: "", required: false }, props[name])); }
    });
  }

  function select(layer) {
    var previous = selected;
    selected = layer;
    if (previous) { paint(previous); }
    if (layer) { paint(layer); }
    relist();
    if (!form) { return; }
    if (!layer) { form.hidden = true; return; }
    var props = (layer.feature && layer.feature.properties) || {};
    var kind = KINDS[props.kind] ? props.kind : $("kind-picker").value;
    $("prop-kind").value = kind;
    renderFields(kind, props);
    form.hidden = false;
  }

  function readFields() {
    var props = { kind: $("prop-kind").value };
    Array.prototype.forEach.call(fields.querySelectorAll("input[data-prop]"), function (control) {
      var name = control.dataset.prop;
      var type = control.dataset.type;
      if (type === "bool") {
        if (control.checked) { props[name] = true; }
        return;
      }
      var value = control.value.trim();
      if (!value) { return; }
      if ((type === "quantity" || type === "coefficient") && /^-?\d+(\.\d+)?$/.test(value)) {
        props[name] = Number(value);
      } else {
        props[name] = value;  // "420 yd^3", "2 %": the server reads units and names the field
      }
    });
    return props;
  }

  // -- the plan as JSON ------------------------------------------------------------------
  function featureOf(layer) {
    var geometry = layer.toGeoJSON(false).geometry;
    var props = {};
    var source = (layer.feature && layer.feature.properties) || {};
    Object.keys(source).forEach(function (name) {
      var value = source[name];
      if (value !== "" && value !== null && value !== undefined) { props[name] = value; }
    });
    return { type: "Feature", properties: props, geometry: geometry };
  }
  function collect() {
    var out = {};
    Object.keys(plan).forEach(function (key) { out[key] = plan[key]; });
    if ($("plan-land-use")) {
      var landUse = $("plan-land-use").value;
      if (landUse) { out.land_use = landUse; } else { delete out.land_use; }
      out.runoff_leaves_site = $("plan-runoff").checked;
      out.channel_originates_on_site = $("plan-channel").checked;
      ["description", "maintenance"].forEach(function (name) {
        var value = $("plan-" + name).value.trim();
        if (value) { out[name] = value; } else { delete out[name]; }
      });
    }
    out.site = { type: "FeatureCollection", features: layers().map(featureOf) };
    return out;
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (answer) {
        return { ok: response.ok, answer: answer };
      }, function () {
        return { ok: false, answer: { detail: "the server answered " + response.status } };
      });
    });
  }

  // An error naming plan.site.features[i] selects that feature, so the person sees it.
  function pointAt(field, candidates) {
    var match = /^plan\.site\.features\[(\d+)\]/.exec(field || "");
    if (match && candidates[Number(match[1])]) { select(candidates[Number(match[1])]); }
  }

  // -- wiring ----------------------------------------------------------------------------
  addCollection(plan.site || { type: "FeatureCollection", features: [] });
  fit();
  relist();
  map.on("click", function () { select(null); });

  if (!canEdit) { return; }

  var picker = $("kind-picker");
  function hint() {
    var spec = KINDS[picker.value];
    $("kind-hint").textContent = spec ? spec.meaning + "; drawn as " + spec.geometries.join(" or ") + "." : "";
  }
  picker.addEventListener("change", hint);
  hint();

  map.pm.setGlobalOptions({ layerGroup: drawn, snappable: true });
  map.pm.addControls({
    position: "topleft",
    drawMarker: false,
    drawCircle: false,
    drawText: false,
    drawCircleMarker: true,
    drawPolyline: true,
    drawPolygon: true,
    drawRectangle: true,
    cutPolygon: false,
    rotateMode: false,
    editMode: true,
    dragMode: true,
    removalMode: true
  });
  // Geoman's toolbar buttons are links with an icon and no text: give each the name a
  // screen reader reads and a tooltip, from the icon that says what the button does.
  var TOOL_NAMES = {
    "leaflet-pm-icon-polygon": "Draw an area (polygon)",
    "leaflet-pm-icon-rectangle": "Draw a rectangle",
    "leaflet-pm-icon-polyline": "Draw a line",
    "leaflet-pm-icon-circle-marker": "Draw a point",
    "leaflet-pm-icon-edit": "Move the corners of features",
    "leaflet-pm-icon-drag": "Move whole features",
    "leaflet-pm-icon-delete": "Delete features by clicking them"
  };
  function nameTools() {
    var buttons = $("plan-map").querySelectorAll(".leaflet-pm-toolbar a.leaflet-buttons-control-button");
    Array.prototype.forEach.call(buttons, function (button) {
      var icon = button.querySelector(".control-icon");
      var name = null;
      Object.keys(TOOL_NAMES).forEach(function (cls) {
        if (icon && icon.classList.contains(cls)) { name = TOOL_NAMES[cls]; }
      });
      if (name) {
        button.setAttribute("aria-label", name);
        button.setAttribute("title", name);
      }
    });
    // The actions a tool offers while it is active (Finish, Cancel...) are text links
    // without an address: give them the role they play.
    var actions = $("plan-map").querySelectorAll(".leaflet-pm-actions-container a.leaflet-pm-action");
    Array.prototype.forEach.call(actions, function (action) {
      action.setAttribute("role", "button");
      if (!action.getAttribute("href")) { action.setAttribute("href", "#"); }
    });
  }
  nameTools();
  map.on("pm:buttonclick pm:actionclick pm:globaldrawmodetoggled", nameTools);

  map.on("pm:create", function (event) {
    var layer = event.layer;
    layer.feature = { type: "Feature", properties: { kind: picker.value } };
    if (!drawn.hasLayer(layer)) { drawn.addLayer(layer); }
    adopt(layer);
    select(layer);
    dirty();
    say("Drew a " + label(picker.value) + " (not saved yet).", true);
  });
  map.on("pm:remove", function (event) {
    drawn.removeLayer(event.layer);
    if (selected === event.layer) { select(null); } else { relist(); }
    dirty();
  });

  $("prop-kind").addEventListener("change", function () {
    renderFields($("prop-kind").value, selected ? readFields() : {});
  });
  $("feature-apply").addEventListener("click", function () {
    if (!selected) { return; }
    selected.feature = selected.feature || { type: "Feature" };
    selected.feature.properties = readFields();
    paint(selected);
    relist();
    dirty();
  });
  $("feature-delete").addEventListener("click", function () {
    if (!selected) { return; }
    drawn.removeLayer(selected);
    select(null);
    dirty();
  });

  ["plan-land-use", "plan-runoff", "plan-channel", "plan-description", "plan-maintenance"].forEach(
    function (id) { $(id).addEventListener("change", dirty); }
  );

  // Import: read the file here, let the server check and measure it, then draw it.
  $("import-file").addEventListener("change", function (event) {
    var file = event.target.files[0];
    if (!file) { return; }
    clearError();
    file.text().then(function (text) {
      var document_;
      try {
        document_ = JSON.parse(text);
      } catch (problem) {
        showError("import: " + file.name + " is not valid JSON (" + problem.message + ")");
        return null;
      }
      var whole = document_ && typeof document_ === "object" && document_.site !== undefined;
      var site = whole ? document_.site : document_;
      if (site && (site.type === "Feature" || (site.type && site.type !== "FeatureCollection"))) {
        site = { type: "FeatureCollection", features: [site.type === "Feature" ? site : { type: "Feature", properties: {}, geometry: site }] };
      }
      if (!site || site.type !== "FeatureCollection" || !Array.isArray(site.features)) {
        showError("import: " + file.name + " is not a GeoJSON FeatureCollection, Feature or geometry, nor a plan with a site");
        return null;
      }
      var given = 0;
      site.features.forEach(function (feature) {
        if (feature && typeof feature === "object" && feature.type === "Feature") {
          feature.properties = feature.properties || {};
          if (!feature.properties.kind) { feature.properties.kind = picker.value; given += 1; }
        }
      });
      var adding = $("import-add").checked;
      var existing = adding ? layers().map(featureOf) : [];
      var merged = { type: "FeatureCollection", features: existing.concat(site.features) };
      if (site.crs !== undefined) { merged.crs = site.crs; }
      return post(data.urls.siteCheck, { site: merged }).then(function (result) {
        if (!result.ok) {
          showError(result.answer.says || result.answer.detail);
          return;
        }
        if (whole) {
          plan = document_;
          $("plan-land-use").value = plan.land_use || "";
          $("plan-runoff").checked = plan.runoff_leaves_site === true;
          $("plan-channel").checked = plan.channel_originates_on_site === true;
          $("plan-description").value = plan.description || "";
          $("plan-maintenance").value = plan.maintenance || "";
        }
        if (!adding) { drawn.clearLayers(); }
        select(null);
        addCollection({ type: "FeatureCollection", features: site.features });
        fit();
        relist();
        dirty();
        var note = given ? " " + given + " feature(s) had no kind and were given the kind " + label(picker.value) + " chosen under Draw: change it where it is wrong." : "";
        say("Imported " + site.features.length + " feature(s) from " + file.name + " (not saved yet): " + result.answer.sentence + "." + note, true);
      });
    }).catch(function (problem) {
      showError("import: could not read " + file.name + " (" + problem + ")");
    }).then(function () { event.target.value = ""; });
  });

  // Save: the whole plan as JSON; the server validates, measures and keeps a new revision.
  $("plan-save").addEventListener("click", function () {
    clearError();
    var candidates = layers();
    var body = collect();
    post(data.urls.save, body).then(function (result) {
      if (!result.ok) {
        showError(result.answer.says || result.answer.detail);
        pointAt(result.answer.field, candidates);
        return;
      }
      plan = body;
      var flag = $("plan-dirty");
      if (flag) { flag.hidden = true; }
      say("Revision " + result.answer.revision + " saved: " + result.answer.sentence + ".", false);
      var links = $("plan-links");
      links.textContent = "";
      [["Design-check report", result.answer.report_url],
       ["Report as PDF", result.answer.report_url.replace(/report\/$/, "report.pdf")],
       ["Site geometry (GeoJSON)", result.answer.report_url.replace(/report\/$/, "plan.geojson")]
      ].forEach(function (pair) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = pair[1];
        link.textContent = pair[0];
        item.appendChild(link);
        links.appendChild(item);
      });
    }, function (problem) {
      showError("save: the plan could not be sent (" + problem + ")");
    });
  });
}());
