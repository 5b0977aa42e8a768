/**
 * The core's own prompt templates, registered under the `core/` namespace of every runtime's
 * PromptRegistry. They live in code rather than in .liquid files so the bundled package needs
 * no file-system layout at run time.
 */
export const coreTemplates: Readonly<Record<string, string>> = {
  'pipeline-generation': `You plan the work of an AI agent. A trigger produced the task below; choose which executors to run, in order, to handle it.

## Task
Space: {{ space.id }}{% if space.description %} ({{ space.description }}){% endif %}
Trigger: {{ task.trigger.pluginId }}/{{ task.trigger.action }}
{% if task.trigger.message %}Message: {{ task.trigger.message }}
{% endif %}{% if task.trigger.data != nil %}Data: {{ task.trigger.data | json }}
{% endif %}
## Executors you may use
{% for executor in executors %}- pluginId "{{ executor.pluginId }}", action "{{ executor.action }}": {{ executor.description }}
{% endfor %}
## Earlier tasks and related memories, newest first
{{ relatedText }}

Answer with at most {{ maxSteps }} steps, using only the executors listed. Return an empty "steps" list when nothing needs doing.`,

  'pipeline-modification': `You supervise the pipeline of an AI agent. A step has just run; decide whether the remaining steps still make sense.

## Task
Space: {{ space.id }}
Trigger: {{ task.trigger.pluginId }}/{{ task.trigger.action }}
{% if task.trigger.message %}Message: {{ task.trigger.message }}
{% endif %}
## What happened so far
{% for item in chain %}- {{ item.type }} from {{ item.pluginId }}{% if item.action %}/{{ item.action }}{% endif %}: {% if item.type == "error" %}{{ item.error }}{% elsif item.data != nil %}{{ item.data | json | truncate: 400 }}{% else %}{{ item.message | default: "no data" }}{% endif %}
{% endfor %}
## Remaining steps
{% for step in remaining %}- {{ step.pluginId }}/{{ step.action }}{% if step.reason %} ({{ step.reason }}){% endif %}
{% else %}None.
{% endfor %}
## Executors you may use
{% for executor in executors %}- pluginId "{{ executor.pluginId }}", action "{{ executor.action }}": {{ executor.description }}
{% endfor %}
{{ stepsLeft }} more steps may run. Answer {"type": "continue"} to keep the remaining steps, {"type": "replace", "steps": [...]} to replace them, or {"type": "stop"} when the task is done or cannot be done.`,

  'get-object': `{% if system != "" %}{{ system }}

{% endif %}Answer with one JSON value and nothing else: no prose, no code fences. It must match this JSON Schema ({{ schemaName }}):
{{ schema }}`,

  'get-object-retry': `Your previous answer was not valid for the schema {{ schemaName }}:
{{ error }}

Answer again with one corrected JSON value that matches the schema, and nothing else.`,
};
