import { Plugin, spaceId, type Executor, type Trigger } from '@weft/core';

/** The part of an issue-tracker webhook this plugin reads. */
interface IssueEvent {
  repository: string;
  issue: { number: number; title: string; body?: string };
}

/**
 * An error whose `status` the runtime's HTTP server answers with; `expose` says its message was
 * written for the client, so the answer shows it.
 */
class HttpError extends Error {
  readonly expose = true;

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Triages new issues that an issue tracker posts to a webhook. */
export class IssuesPlugin extends Plugin {
  readonly id = 'issues';
  readonly description = 'Triages issues posted by an issue-tracker webhook.';

  override readonly executors: Executor[] = [
    {
      action: 'label',
      description:
        'Labels the issue: bug when its title mentions a crash, an error or ' +
        'something broken, question otherwise.',
      execute: async (task) => {
        const { issue } = task.trigger.data as IssueEvent;
        const label = /crash|error|broken/i.test(issue.title)
          ? 'bug'
          : 'question';
        return {
          success: true,
          data: { label },
          message: `#${issue.number}: ${label}`,
        };
      },
    },
  ];

  override readonly triggers: Trigger[] = [
    {
      type: 'route',
      id: 'issue-opened',
      method: 'POST',
      path: '/webhooks/issues',
      handler: async (request, response, runtime) => {
        const event = request.body as Partial<IssueEvent> | undefined;
        if (
          typeof event?.repository !== 'string' ||
          typeof event.issue?.number !== 'number' ||
          typeof event.issue.title !== 'string'
        ) {
          throw new HttpError(
            422,
            'expected { repository, issue: { number, title } }',
          );
        }
        const task = await runtime.dispatch({
          pluginId: this.id,
          triggerId: 'issue-opened',
          // One space per repository: its issues are triaged one at a time, in
          // order.
          space: {
            id: spaceId('repo', event.repository),
            description: `Issues of ${event.repository}`,
          },
          message: event.issue.title,
          data: event,
          metadata: { deliveryId: request.header('x-delivery-id') },
        });
        response.status(202).json({
          taskId: task.id,
          status: task.status,
          label: task.chain.at(-1)?.data,
        });
      },
    },
  ];
}
