# expect: wrong_answer
# Counts the token the step is about to generate as already stored: a running request
# holds ceil((P + g + 1) / B) blocks, one slot too many at every block boundary.
from collections import deque


def schedule(block_size: int, num_blocks: int, max_running: int,
             requests: list[list[int]]) -> list[list[int]]:
    n = len(requests)
    finish, preempted = [-1] * n, [0] * n
    generated = [0] * n  # tokens generated so far: kept across preemptions
    held = [0] * n  # KV blocks each request holds now
    waiting: deque[int] = deque()  # FCFS; preempted requests go back to the front
    running: list[int] = []  # in order of admission, oldest first
    free, arrived, done, step = num_blocks, 0, 0, 0
    while done < n:
        if not running and not waiting:  # idle: jump to the next arrival
            step = max(step, requests[arrived][0])
        while arrived < n and requests[arrived][0] <= step:
            waiting.append(arrived)
            arrived += 1
        # 1. Every running request, oldest admission first, grows by one token.
        any_preempted = False
        i = 0
        while i < len(running):
            r = running[i]
            prompt = requests[r][1]
            need = -(-(prompt + generated[r] + 1) // block_size) - held[r]  # ceil, minus held
            victim = -1
            while need > free:  # evict the most recently admitted request
                victim = running.pop()
                free += held[victim]
                held[victim] = 0
                preempted[victim] += 1
                waiting.appendleft(victim)  # recompute: back to the front of the queue
                any_preempted = True
                if victim == r:
                    break
            if victim == r:
                break  # r itself was the last running request, and is now waiting
            free -= need
            held[r] += need
            generated[r] += 1
            i += 1
        # 2. Admissions (prefill), FCFS, only in a step without preemption.
        if not any_preempted:
            while waiting and len(running) < max_running:
                r = waiting[0]
                need = -(-(requests[r][1] + generated[r] + 1) // block_size)
                if need > free:
                    break  # head-of-line: later requests wait behind it
                waiting.popleft()
                running.append(r)
                free -= need
                held[r] = need
                generated[r] += 1
        # 3. Requests that generated their last token finish; their blocks are freed.
        still = []
        for r in running:
            if generated[r] == requests[r][2]:
                finish[r] = step
                free += held[r]
                held[r] = 0
                done += 1
            else:
                still.append(r)
        running = still
        step += 1
    return [finish, preempted]
