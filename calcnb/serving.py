"""The kernel manager of a classroom app: ready kernels wait for their students, idle ones left behind go.

``python -m calcnb app --preheat N`` keeps N kernels with the notebook already run
(Voila's pool of pre-heated kernels), so a class opening the app at once gets its
boards without thirty Python start-ups on the spot. Voila's pool and the server's
culling of kernels no page is connected to (see :mod:`calcnb.app`) do not know
each other: a kernel waiting in the pool has no page yet, so the culler would shut
it down after the idle timeout and the pool would empty. This manager culls only
kernels that have left the pool. Voila builds its pooling manager on top of it
(``VoilaConfiguration.multi_kernel_manager_class``).
"""

from __future__ import annotations

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Jupyter Server's kernel manager, never culling a kernel that waits in Voila's pool."""

    def pooled_kernels(self) -> set[str]:
        """The ids of the kernels ready in a pool (none without Voila's pooling)."""
        ready = set()
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    ready.add(task.result()["kernel_id"])
        return ready

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull as Jupyter Server does, except a kernel still waiting for its student."""
        if kernel_id in self.pooled_kernels():
            return
        await super().cull_kernel_if_idle(kernel_id)
