// Compiles WGSL with the browser's own WebGPU (in Chromium: Tint, the compiler that also writes
// the MSL on a Mac) and reports every message it gives. The device is requested here, not
// through wgpu, because wgpu does not ask the browser for the "subgroups" feature.
//
// Returns one line per finding, tab-separated: `error|warning|info <label> <line>:<col> <text>`,
// plus `adapter <description>`, `features <list>` and `checked <modules> <pipelines>`.

export async function tintCheck(labels, sources, pipelines, subgroups) {
  if (!navigator.gpu) {
    throw new Error("this browser has no WebGPU (navigator.gpu is undefined)");
  }
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) {
    throw new Error("the browser's WebGPU gave no adapter");
  }
  const required = [];
  if (subgroups) {
    if (!adapter.features.has("subgroups")) {
      throw new Error("the adapter does not offer the subgroups feature");
    }
    required.push("subgroups");
  }
  const l = adapter.limits;
  const device = await adapter.requestDevice({
    requiredFeatures: required,
    requiredLimits: {
      maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
      maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    },
  });
  const info = adapter.info || {};
  const lines = [
    `adapter\t${[info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(" / ")}`,
    `features\t${[...device.features].sort().join(",")}`,
  ];
  // Anything else the device rejects (a module's errors come with its compilation info).
  device.addEventListener("uncapturederror", (e) => {
    lines.push(`error\t(uncaptured)\t0:0 ${e.error.message}`);
  });
  const wanted = new Set(pipelines);
  let built = 0;
  // Modules in batches: creation is quick, the compilation info is a round trip each.
  const batch = 64;
  for (let start = 0; start < sources.length; start += batch) {
    const jobs = [];
    for (let i = start; i < Math.min(start + batch, sources.length); i++) {
      jobs.push(
        (async () => {
          // The scope is pushed and popped around the one call, so concurrent jobs never share
          // a scope; a module's errors come with its compilation info, the scope catches the rest.
          device.pushErrorScope("validation");
          const module = device.createShaderModule({ label: labels[i], code: sources[i] });
          const scope = device.popErrorScope();
          const ci = await module.getCompilationInfo();
          for (const m of ci.messages) {
            lines.push(`${m.type}\t${labels[i]}\t${m.lineNum}:${m.linePos} ${m.message}`);
          }
          const err = await scope;
          if (err && !ci.messages.some((m) => m.type === "error")) {
            lines.push(`error\t${labels[i]}\t0:0 ${err.message}`);
          }
          if (wanted.has(i)) {
            try {
              await device.createComputePipelineAsync({
                label: labels[i],
                layout: "auto",
                compute: { module, entryPoint: "main" },
              });
              built += 1;
            } catch (e) {
              lines.push(`error\t${labels[i]}\t0:0 pipeline: ${e.message}`);
            }
          }
        })(),
      );
    }
    await Promise.all(jobs);
  }
  lines.push(`checked\t${sources.length}\t${built}`);
  device.destroy();
  return lines.join("\n");
}
